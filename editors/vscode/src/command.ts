// Which command starts `memlint server`, from the settings and the Python
// extension's choice. No `vscode` import here: this is plain data in, data out.
import * as os from "os";
import * as path from "path";

export interface Settings {
  enable: boolean;
  /** A Python interpreter that has memlint; empty: ask the Python extension, then PATH. */
  interpreter: string;
  /** Extra arguments after `memlint server`. */
  args: string[];
}

/** Where the command came from: the messages tell the user which knob to turn. */
export type Source = "setting" | "python-extension" | "path";

export interface ServerCommand {
  command: string;
  args: string[];
  source: Source;
}

/**
 * `<python> -m memlint server ARGS` when an interpreter is known (the setting
 * first, else the Python extension's selected one), else `memlint server ARGS`
 * from PATH.
 */
export function serverCommand(settings: Settings, selectedPython: string | undefined, workspaceFolder: string | undefined): ServerCommand {
  const configured = expandPath(settings.interpreter.trim(), workspaceFolder);
  if (configured) {
    return { command: configured, args: ["-m", "memlint", "server", ...settings.args], source: "setting" };
  }
  if (selectedPython) {
    return { command: selectedPython, args: ["-m", "memlint", "server", ...settings.args], source: "python-extension" };
  }
  return { command: "memlint", args: ["server", ...settings.args], source: "path" };
}

/** `${workspaceFolder}`, `${userHome}` and a leading `~`, as VS Code users write them in paths. */
export function expandPath(value: string, workspaceFolder: string | undefined): string {
  let result = value.replace(/\$\{userHome\}/g, os.homedir());
  if (workspaceFolder !== undefined) {
    result = result.replace(/\$\{workspaceFolder\}/g, workspaceFolder);
  }
  if (result === "~" || result.startsWith("~/")) {
    result = path.join(os.homedir(), result.slice(1));
  }
  return result;
}

/** The command as one shell-like line, for the output channel. */
export function commandLine(command: ServerCommand): string {
  return [command.command, ...command.args].map((part) => (/[\s"']/.test(part) ? JSON.stringify(part) : part)).join(" ");
}
