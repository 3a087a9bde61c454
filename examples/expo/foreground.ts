// Calls `pickUp` each time the app comes back to the foreground after it was in the background,
// where the phone may have cut its connection while the turn ran on (detached) at the worker.
import { useEffect, useRef } from 'react';
import { AppState } from 'react-native';

export function useOnForeground(pickUp: () => Promise<void>): void {
  const latest = useRef(pickUp);
  latest.current = pickUp;
  useEffect(() => {
    let wasInBackground = false;
    const subscription = AppState.addEventListener('change', (state) => {
      if (state === 'background') wasInBackground = true;
      if (state === 'active' && wasInBackground) {
        wasInBackground = false;
        latest.current().catch((error: unknown) => console.warn('Could not pick the turn up', error));
      }
    });
    return () => subscription.remove();
  }, []);
}
