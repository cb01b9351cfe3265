// Before the language client starts the server, check that it can start, so
// that "the interpreter is missing", "memlint is not installed there" and "its
// `server` extra is missing" are one clear line instead of the language
// client's generic "couldn't create connection to server" notifications.
//
// With a known interpreter the check asks it whether memlint and pygls are
// importable (tens of milliseconds, nothing imported). With `memlint` from PATH
// there is no interpreter to ask: the check starts the server once with stdin
// closed; a working one reads end-of-file and exits 0, a broken one says why
// on stderr (it costs one more server start).
import { spawn } from "child_process";
import { commandLine, ServerCommand } from "./command";

/** A check still running by then is taken as passed (the server did start). */
export const PREFLIGHT_TIMEOUT_MS = 20_000;

export type Preflight = { ok: true } | { ok: false; message: string; stderr: string };

const NO_MEMLINT = 3;
const NO_SERVER_EXTRA = 4;
const IMPORT_CHECK =
  "import importlib.util as u, sys; " +
  `sys.exit(${NO_MEMLINT} if u.find_spec("memlint") is None else ${NO_SERVER_EXTRA} if u.find_spec("pygls") is None else 0)`;

// memlint is installed from its repository (the name `memlint` on PyPI is another project).
const INSTALL = 'pip install "memlint-torch[server] @ git+https://github.com/memlint/memlint"';

export function preflight(command: ServerCommand, cwd: string | undefined, timeoutMs = PREFLIGHT_TIMEOUT_MS): Promise<Preflight> {
  const args = command.source === "path" ? command.args : ["-c", IMPORT_CHECK];
  return new Promise((resolve) => {
    const child = spawn(command.command, args, { cwd, stdio: ["ignore", "ignore", "pipe"], windowsHide: true });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (stderr += chunk));
    let gaveUp = false;
    const timer = setTimeout(() => {
      // Resolved on `exit`, not `close`: a grandchild may hold stderr open.
      gaveUp = true;
      child.once("exit", () => resolve({ ok: true }));
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ ok: false, message: notStarted(command, error), stderr });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (!gaveUp) {
        resolve(code === 0 ? { ok: true } : { ok: false, message: failed(command, stderr, code, signal), stderr });
      }
    });
  });
}

function notStarted(command: ServerCommand, error: NodeJS.ErrnoException): string {
  if (error.code === "ENOENT") {
    switch (command.source) {
      case "setting":
        return `memlint: the interpreter set in memlint.interpreter was not found: ${command.command}`;
      case "python-extension":
        return `memlint: the Python interpreter selected in the Python extension was not found: ${command.command}`;
      case "path":
        return `memlint: the memlint command was not found on PATH; install it with ${INSTALL}, or set memlint.interpreter to a Python that has it.`;
    }
  }
  return `memlint: could not run ${command.command}: ${error.message}`;
}

function failed(command: ServerCommand, stderr: string, code: number | null, signal: NodeJS.Signals | null): string {
  const python = command.source === "path" ? undefined : command.command;
  if (python !== undefined && (code === NO_MEMLINT || code === NO_SERVER_EXTRA)) {
    const what = code === NO_MEMLINT ? "memlint is not installed" : "memlint's language server needs its server extra";
    return `memlint: ${what} for ${python}; run: ${JSON.stringify(python)} -m ${INSTALL}`;
  }
  const last = stderr.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "").at(-1);
  const where = python === undefined ? "" : ` (interpreter: ${python})`;
  if (last !== undefined) {
    return `${last.startsWith("memlint:") ? last : `memlint: ${last}`}${where}`;
  }
  const status = code !== null ? `exited with code ${code}` : `was ended by ${signal}`;
  const checked = python === undefined ? commandLine(command) : `${python} (checking for memlint)`;
  return `memlint: ${checked} ${status}`;
}
