// The extension: one memlint language server per window, started from the
// user's environment, restarted when its settings or the selected interpreter change.
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, RevealOutputChannelOn } from "vscode-languageclient/node";
import { commandLine, serverCommand, ServerCommand, Settings } from "./command";
import { preflight } from "./preflight";
import { onInterpreterChange, selectedInterpreter } from "./python";

/** What `activate` returns: lets other extensions (and the tests) restart the server and see what runs. */
export interface MemlintApi {
  restart(): Promise<void>;
  /** Resolves once the starts and restarts asked for so far are done. */
  idle(): Promise<void>;
  /** The command of the running server; undefined while none runs. */
  running(): ServerCommand | undefined;
}

const SOURCES: Record<ServerCommand["source"], string> = {
  setting: "interpreter from memlint.interpreter",
  "python-extension": "interpreter selected in the Python extension",
  path: "memlint from PATH",
};

/** The settings the server's command depends on (the language client follows memlint.trace.server itself). */
const RESTART_ON = ["memlint.enable", "memlint.interpreter", "memlint.args"];

export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration("memlint");
  const args = config.get<unknown>("args", []);
  return {
    enable: config.get<boolean>("enable", true) !== false,
    interpreter: String(config.get<string>("interpreter", "") ?? ""),
    // A hand-edited settings.json may hold anything; only a list of strings is arguments.
    args: Array.isArray(args) ? args.filter((arg): arg is string => typeof arg === "string") : [],
  };
}

class Server {
  private client: LanguageClient | undefined;
  private command: ServerCommand | undefined;
  // Starts and stops run one after another: a burst of setting changes ends with the last settings.
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly output: vscode.OutputChannel) {}

  running(): ServerCommand | undefined {
    return this.command;
  }

  idle(): Promise<void> {
    return this.queue;
  }

  restart(): Promise<void> {
    this.queue = this.queue.then(() => this.restartNow()).catch((error: unknown) => this.log(`Start failed: ${String(error)}`));
    return this.queue;
  }

  stop(): Promise<void> {
    this.queue = this.queue.then(() => this.stopNow());
    return this.queue;
  }

  private log(line: string): void {
    this.output.appendLine(`[memlint] ${line}`);
  }

  private async stopNow(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.command = undefined;
    if (client !== undefined) {
      await client.stop().catch((error: unknown) => this.log(`Stopping the server failed: ${String(error)}`));
    }
  }

  private async restartNow(): Promise<void> {
    await this.stopNow();
    const settings = readSettings();
    if (!settings.enable) {
      this.log("memlint.enable is off: no server.");
      return;
    }
    const folder = vscode.workspace.workspaceFolders?.[0];
    const cwd = folder?.uri.fsPath;
    const selected = settings.interpreter.trim() ? undefined : await this.pythonExtensionChoice(folder?.uri);
    const command = serverCommand(settings, selected, cwd);
    this.log(`Starting ${commandLine(command)} (${SOURCES[command.source]})`);
    const check = await preflight(command, cwd);
    if (!check.ok) {
      if (check.stderr) {
        this.output.append(check.stderr);
      }
      this.log(check.message);
      void vscode.window.showErrorMessage(check.message, "Show Output").then((choice) => choice && this.output.show());
      return;
    }
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: "file", language: "python" },
        { scheme: "vscode-notebook-cell", language: "python" },
      ],
      outputChannel: this.output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
    };
    const client = new LanguageClient(
      "memlint",
      "memlint",
      { command: command.command, args: command.args, options: { cwd } },
      clientOptions,
    );
    this.client = client;
    await client.start();
    this.command = command;
  }

  private async pythonExtensionChoice(resource: vscode.Uri | undefined): Promise<string | undefined> {
    try {
      return await selectedInterpreter(resource);
    } catch (error) {
      this.log(`The Python extension gave no interpreter (${String(error)}); using memlint from PATH.`);
      return undefined;
    }
  }
}

let server: Server | undefined;

export function activate(context: vscode.ExtensionContext): MemlintApi {
  const output = vscode.window.createOutputChannel("memlint");
  const current = new Server(output);
  server = current;
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("memlint.restart", () => current.restart()),
    vscode.commands.registerCommand("memlint.showOutput", () => output.show()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (RESTART_ON.some((setting) => event.affectsConfiguration(setting))) {
        void current.restart();
      }
    }),
  );
  void current.restart();
  // The selected interpreter matters only while memlint.interpreter is empty.
  void onInterpreterChange(() => {
    if (!readSettings().interpreter.trim()) {
      void current.restart();
    }
  })
    .then((listener) => listener && context.subscriptions.push(listener))
    .catch((error: unknown) => output.appendLine(`[memlint] Not following the Python extension's interpreter: ${String(error)}`));
  return { restart: () => current.restart(), idle: () => current.idle(), running: () => current.running() };
}

export function deactivate(): Promise<void> | undefined {
  const stopping = server?.stop();
  server = undefined;
  return stopping;
}
