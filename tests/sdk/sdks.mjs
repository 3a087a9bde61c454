// Loads the four AI SDK releases the conformance test runs against, from the repo's node_modules.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// label, accepted npm alias names (first installed wins), and the version each must resolve to.
export const SDK_SPECS = [
  { label: 'ai@5.0.0', names: ['ai-v500', 'ai-v5-0-0'], accepts: (v) => v === '5.0.0' },
  { label: 'ai@5', names: ['ai-v5'], accepts: (v) => v.startsWith('5.') && v !== '5.0.0' },
  { label: 'ai@6', names: ['ai-v6', 'ai'], accepts: (v) => v.startsWith('6.') },
  { label: 'ai@7', names: ['ai-v7'], accepts: (v) => v.startsWith('7.') },
];

function installedVersion(name) {
  try {
    return require(`${name}/package.json`).version;
  } catch {
    return undefined;
  }
}

/** Imports one SDK; throws a message naming the missing devDependency instead of skipping. */
export async function loadSdk(spec) {
  const seen = [];
  for (const name of spec.names) {
    const version = installedVersion(name);
    if (version === undefined) continue;
    seen.push(`${name}@${version}`);
    if (!spec.accepts(version)) continue;
    return { label: spec.label, name, version, mod: await import(name) };
  }
  throw new Error(
    `${spec.label} is not installed (found: ${seen.join(', ') || 'none'}); ` +
      `add e.g. "${spec.names[0]}": "npm:${spec.label}" to devDependencies and run npm install`,
  );
}
