// The app's entry point: the polyfills first, then the app's screens.
import './polyfills';
import { registerRootComponent } from 'expo';
import App from './App';

registerRootComponent(App);
