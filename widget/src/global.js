// The page's handle on its chat panels: `window.AgentChat`, which works before the script has
// loaded, and reaches every panel of the page when there is more than one.
//
// The embed snippet defines a stub that queues its calls:
//
//   <script>window.AgentChat=window.AgentChat||function(){(AgentChat.q=AgentChat.q||[]).push(arguments)}</script>
//   <script src="https://chat.example.com/widget.js" async></script>
//
// When the script runs it replaces the stub with the real one and makes the queued calls, in
// order, before the panel first mounts. `AgentChat("init", {…})` and `AgentChat.init({…})` are
// the same call. They reach the page's first instance; `AgentChat.instance(name)` has the same
// methods for any instance: another widget.js tag (its `data-name`), or one the page adds with
// `init({ name, … })`. `on` hears every instance (each event's detail names it), and `logout`
// forgets the visitor in all of them.
import { DEFAULT_INSTANCE, isInstanceName } from "./config.js";
import { forgetStored } from "./storage.js";
import { createInstance } from "./instance.js";
import { GLOBAL_NAME, createEvents } from "./events.js";

/** Where a loader finds the registry of an `AgentChat` another widget.js installed. */
const REGISTRY = Symbol.for("session-agent-chat:registry");

/**
 * Installs the global over the stub, whose queued calls are then made; a later widget.js on the
 * same page joins it instead, as an instance of its own. `script`: this loader's tag;
 * `createPanel(script)`: loader.js's panel of a tag; `scriptOptions(script)`: a tag's
 * data-attributes as options. Returns { boot() }, to call once the page is ready.
 */
export function installGlobal(window, script, createPanel, scriptOptions) {
  const existing = window[GLOBAL_NAME];
  if (typeof existing === "function" && existing[REGISTRY]) {
    existing[REGISTRY].addScript(script);
    return { boot() {} };
  }
  // Every tag of this widget.js the parser has reached, in the page's order: async scripts run
  // in any order, but the page's first tag is always before this one, so its panel is the first.
  const tags = [...window.document.scripts].filter((tag) => tag.src && tag.src === script?.src);
  if (!tags.includes(script)) tags.push(script);
  const queued = typeof existing === "function" && Array.isArray(existing.q) ? [...existing.q] : [];
  const events = createEvents();
  /** name → instance, in the order they came; the first is the one `AgentChat` calls. */
  const instances = new Map();
  let booted = false;

  /** The visitor leaves: everything the widget kept in this browser, and every panel, forgets them. */
  const logout = () => {
    forgetStored();
    for (const instance of instances.values()) instance.forgetVisitor();
  };
  /** The tags of the instances, so that a tag's own loader, when it runs, adds nothing more. */
  const registered = new Set();
  /** A new instance `name` of the tag `tag` (its data-attributes under the page's options). */
  const add = (name, tag, defaults = () => scriptOptions(tag)) => {
    registered.add(tag);
    const instance = createInstance({
      name,
      first: instances.size === 0,
      panel: createPanel(tag),
      defaults,
      emit: events.emit,
      logout,
    });
    instances.set(name, instance);
    if (booted) instance.boot();
    return instance;
  };
  /**
   * A widget.js tag's instance: named by its `data-name`, else "default" for the first without
   * one; a tag whose name is taken (or missing on a second tag) gets one, said in the console.
   */
  const addTag = (tag) => {
    if (registered.has(tag)) return;
    let name = scriptOptions(tag).name;
    if (name === undefined && !instances.has(DEFAULT_INSTANCE)) name = DEFAULT_INSTANCE;
    if (!isInstanceName(name) || instances.has(name)) {
      const given = name;
      let n = instances.size + 1;
      while (instances.has(`widget-${n}`)) n += 1;
      name = `widget-${n}`;
      console.error(
        `${GLOBAL_NAME}: another widget.js needs a data-name of its own to be called by name` +
          `${given ? ` ("${given}" is taken or not a name)` : ""}; it is "${name}": AgentChat.instance("${name}")`,
      );
    }
    add(name, tag);
  };

  for (const tag of tags) addTag(tag);
  const first = () => instances.values().next().value;

  const methods = {
    ...first().methods,
    /**
     * Mounts a panel with these options: the first instance's, or, with a `name` no instance
     * has, a new one (an inline panel elsewhere on the page, say) with the first's tag.
     */
    init(given = {}) {
      const name = given?.name;
      if (name === undefined || name === first().name) return first().methods.init(given);
      if (!isInstanceName(name)) {
        console.error(`${GLOBAL_NAME}: an instance's name is 1 to 64 letters, digits, "-" or "_", not ${JSON.stringify(name)}`);
        return undefined;
      }
      const instance = instances.get(name) ?? add(name, script, () => ({}));
      return instance.methods.init(given);
    },
    /** Forgets the visitor: every session and choice kept in this browser, in every instance. */
    logout,
    /** The instance `name`'s methods (as `AgentChat`'s, for that panel), or null. */
    instance(name) {
      const instance = instances.get(name);
      if (!instance) {
        console.error(`${GLOBAL_NAME}: no instance "${name}" (instances: ${[...instances.keys()].join(", ")})`);
        return null;
      }
      return instance.methods;
    },
    /** Listens to the events of every instance (`detail.instance` says which). */
    on: events.on,
    off: events.off,
  };

  const api = (name, ...args) => {
    const method = methods[name];
    if (!method) {
      console.error(`${GLOBAL_NAME}: no method "${name}" (methods: ${Object.keys(methods).join(", ")})`);
      return undefined;
    }
    return method(...args);
  };
  Object.assign(api, methods);
  api[REGISTRY] = {
    /** A widget.js tag whose loader ran after this one's: an instance of its own, unless it has one. */
    addScript: addTag,
  };
  window[GLOBAL_NAME] = api;

  for (const args of queued) api(...args);
  return {
    /** Mounts every instance for the first time (the page is ready), unless a call destroyed it. */
    boot() {
      booted = true;
      for (const instance of instances.values()) instance.boot();
    },
  };
}
