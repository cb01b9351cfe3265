// Stand-ins for the `vscode` module (which exists only inside VS Code) and for
// `vscode-languageclient/node` (which needs the real `vscode`), resolved through
// Module._load. Importing this file installs them; `reset()` gives each test a
// fresh window. Everything else the extension does (spawning the server's
// command to check it) runs for real.
import Module = require("module");

type Listener<T> = (value: T) => unknown;

export class Emitter<T> {
  listeners: Listener<T>[] = [];
  event = (listener: Listener<T>): { dispose(): void } => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      listener(value);
    }
  }
}

export interface ServerOptions {
  command: string;
  args: string[];
  options: { cwd?: string };
}

export class FakeLanguageClient {
  state: "new" | "running" | "stopped" = "new";
  constructor(
    readonly id: string,
    readonly name: string,
    readonly serverOptions: ServerOptions,
    readonly clientOptions: Record<string, unknown>,
  ) {
    window.clients.push(this);
  }
  async start(): Promise<void> {
    this.state = "running";
  }
  async stop(): Promise<void> {
    this.state = "stopped";
  }
}

export interface PythonExtension {
  interpreter: string | undefined;
  changed: Emitter<unknown>;
}

/** One fake VS Code window: what the extension read and what it did. */
export class Window {
  settings: Record<string, unknown> = {};
  folders: { uri: { fsPath: string }; name: string; index: number }[] | undefined;
  configurationChanged = new Emitter<{ affectsConfiguration(section: string): boolean }>();
  commands = new Map<string, (...args: unknown[]) => unknown>();
  errors: string[] = [];
  output: string[] = [];
  clients: FakeLanguageClient[] = [];
  python: PythonExtension | undefined;

  changeSettings(changes: Record<string, unknown>): void {
    Object.assign(this.settings, changes);
    const keys = Object.keys(changes);
    this.configurationChanged.fire({
      affectsConfiguration: (section) => keys.some((key) => key === section || key.startsWith(`${section}.`)),
    });
  }

  running(): FakeLanguageClient[] {
    return this.clients.filter((client) => client.state === "running");
  }
}

export let window = new Window();

export function reset(): Window {
  window = new Window();
  return window;
}

function disposable(): { dispose(): void } {
  return { dispose() {} };
}

const vscode = {
  workspace: {
    getConfiguration(section: string) {
      return {
        get: <T>(key: string, fallback: T): T => {
          const full = `${section}.${key}`;
          return full in window.settings ? (window.settings[full] as T) : fallback;
        },
      };
    },
    onDidChangeConfiguration: (listener: Listener<{ affectsConfiguration(section: string): boolean }>) =>
      window.configurationChanged.event(listener),
    get workspaceFolders() {
      return window.folders;
    },
  },
  window: {
    createOutputChannel: (_name: string) => ({
      append: (text: string) => window.output.push(text),
      appendLine: (line: string) => window.output.push(line),
      show() {},
      dispose() {},
    }),
    showErrorMessage: async (message: string) => {
      window.errors.push(message);
      return undefined;
    },
  },
  commands: {
    registerCommand(id: string, handler: (...args: unknown[]) => unknown) {
      window.commands.set(id, handler);
      return disposable();
    },
  },
  extensions: {
    getExtension(id: string) {
      const python = window.python;
      if (id !== "ms-python.python" || python === undefined) {
        return undefined;
      }
      const environments = {
        getActiveEnvironmentPath: () => ({ id: "selected", path: "selected" }),
        resolveEnvironment: async () => ({ executable: { uri: python.interpreter && { fsPath: python.interpreter } } }),
        onDidChangeActiveEnvironmentPath: python.changed.event,
      };
      return { isActive: true, exports: { environments }, activate: async () => ({ environments }) };
    },
  },
};

const languageClient = {
  LanguageClient: FakeLanguageClient,
  RevealOutputChannelOn: { Debug: 0, Info: 1, Warn: 2, Error: 3, Never: 4 },
};

const moduleWithLoad = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
const load = moduleWithLoad._load;
moduleWithLoad._load = function (request: string, ...rest: unknown[]) {
  if (request === "vscode") {
    return vscode;
  }
  if (request === "vscode-languageclient/node") {
    return languageClient;
  }
  return load.call(this, request, ...rest);
};
