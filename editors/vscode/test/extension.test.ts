// Activation, with `vscode` and the language client faked (./fakes) and the
// commands real: small scripts stand in for working or broken interpreters and servers,
// and with MEMLINT_TEST_PYTHON (a Python that has memlint and its `server`
// extra; the project's pytest sets it) the real `memlint server`.
import "./fakes";
import { after, beforeEach, describe, test } from "node:test";
import * as assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as rpc from "vscode-jsonrpc/node";
import type { ExtensionContext } from "vscode";
import * as extension from "../src/extension";
import { Emitter, reset, Window } from "./fakes";

const posix = process.platform !== "win32";
const realPython = process.env.MEMLINT_TEST_PYTHON;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "memlint-vscode-"));
const originalPath = process.env.PATH;
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

let counter = 0;
/** An executable shell script; `exit 0` stands for a server that exits at the end of its input. */
function script(body: string, name = "python"): string {
  const dir = path.join(scratch, String(counter++));
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

let window: Window;
let context: { subscriptions: { dispose(): unknown }[] };

async function activate(): Promise<extension.MemlintApi> {
  const api = extension.activate(context as unknown as ExtensionContext);
  await api.idle();
  return api;
}

beforeEach(async () => {
  await extension.deactivate();
  process.env.PATH = originalPath;
  window = reset();
  window.folders = [{ uri: { fsPath: scratch }, name: "project", index: 0 }];
  context = { subscriptions: [] };
});

describe("the server command", { skip: !posix && "shell scripts stand in for interpreters" }, () => {
  test("memlint.interpreter runs <python> -m memlint server with memlint.args, in the workspace folder", async () => {
    const python = script("exit 0");
    window.settings = { "memlint.interpreter": python, "memlint.args": ["--later-option"] };
    const api = await activate();
    assert.equal(window.clients.length, 1);
    assert.deepEqual(window.clients[0].serverOptions, {
      command: python,
      args: ["-m", "memlint", "server", "--later-option"],
      options: { cwd: scratch },
    });
    assert.equal(window.clients[0].state, "running");
    assert.deepEqual(api.running(), { command: python, args: ["-m", "memlint", "server", "--later-option"], source: "setting" });
    assert.deepEqual(window.errors, []);
    assert.ok(window.output.some((line) => line.includes(`Starting ${python} -m memlint server --later-option`)));
  });

  test("${workspaceFolder} in memlint.interpreter is the first workspace folder", async () => {
    const venv = path.join(scratch, "project-venv", "bin");
    fs.mkdirSync(venv, { recursive: true });
    fs.writeFileSync(path.join(venv, "python"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    window.folders = [{ uri: { fsPath: path.join(scratch, "project-venv") }, name: "project", index: 0 }];
    window.settings = { "memlint.interpreter": "${workspaceFolder}/bin/python" };
    await activate();
    assert.equal(window.clients[0].serverOptions.command, path.join(venv, "python"));
  });

  test("without memlint.interpreter, the Python extension's selected interpreter, followed when it changes", async () => {
    const first = script("exit 0");
    const second = script("exit 0");
    window.python = { interpreter: first, changed: new Emitter() };
    const api = await activate();
    assert.deepEqual(window.clients.map((c) => c.serverOptions.command), [first]);
    assert.equal(api.running()?.source, "python-extension");
    await until(() => window.python!.changed.listeners.length === 1);
    window.python.interpreter = second;
    window.python.changed.fire({});
    await api.idle();
    assert.deepEqual(window.clients.map((c) => [c.serverOptions.command, c.state]), [
      [first, "stopped"],
      [second, "running"],
    ]);
  });

  test("the setting wins over the Python extension, which is then not followed", async () => {
    const configured = script("exit 0");
    window.python = { interpreter: script("exit 0"), changed: new Emitter() };
    window.settings = { "memlint.interpreter": configured };
    const api = await activate();
    await until(() => window.python!.changed.listeners.length === 1);
    window.python.changed.fire({});
    await api.idle();
    assert.deepEqual(window.clients.map((c) => [c.serverOptions.command, c.state]), [[configured, "running"]]);
  });

  test("with neither, memlint server from PATH", async () => {
    const memlint = script("exit 0", "memlint");
    process.env.PATH = `${path.dirname(memlint)}${path.delimiter}${originalPath}`;
    window.python = { interpreter: undefined, changed: new Emitter() };
    const api = await activate();
    assert.deepEqual(window.clients[0].serverOptions.args, ["server"]);
    assert.equal(window.clients[0].serverOptions.command, "memlint");
    assert.equal(api.running()?.source, "path");
  });
});

describe("restarts", { skip: !posix && "shell scripts stand in for interpreters" }, () => {
  test("a change of the server's settings restarts it with the new command; other settings do not", async () => {
    const first = script("exit 0");
    const second = script("exit 0");
    window.settings = { "memlint.interpreter": first };
    const api = await activate();
    window.changeSettings({ "editor.fontSize": 20 });
    window.changeSettings({ "memlint.trace.server": "verbose" });
    await api.idle();
    assert.equal(window.clients.length, 1);
    window.changeSettings({ "memlint.interpreter": second, "memlint.args": ["-x"] });
    await api.idle();
    assert.deepEqual(window.clients.map((c) => [c.serverOptions.command, c.serverOptions.args, c.state]), [
      [first, ["-m", "memlint", "server"], "stopped"],
      [second, ["-m", "memlint", "server", "-x"], "running"],
    ]);
  });

  test("memlint.enable off: no server; turned on: one starts", async () => {
    window.settings = { "memlint.enable": false, "memlint.interpreter": script("exit 0") };
    const api = await activate();
    assert.equal(window.clients.length, 0);
    assert.equal(api.running(), undefined);
    window.changeSettings({ "memlint.enable": true });
    await api.idle();
    assert.equal(window.running().length, 1);
    window.changeSettings({ "memlint.enable": false });
    await api.idle();
    assert.equal(window.running().length, 0);
  });

  test("the memlint.restart command starts a fresh server; deactivate stops it", async () => {
    window.settings = { "memlint.interpreter": script("exit 0") };
    const api = await activate();
    await window.commands.get("memlint.restart")!();
    assert.deepEqual(window.clients.map((c) => c.state), ["stopped", "running"]);
    await extension.deactivate();
    assert.deepEqual(window.clients.map((c) => c.state), ["stopped", "stopped"]);
    assert.equal(api.running(), undefined);
  });
});

describe("a server that cannot start is one clear line", { skip: !posix && "shell scripts stand in for interpreters" }, () => {
  function oneError(): string {
    assert.equal(window.errors.length, 1, `errors: ${JSON.stringify(window.errors)}`);
    assert.doesNotMatch(window.errors[0], /\n/);
    assert.equal(window.clients.length, 0, "no language client for a server that cannot start");
    return window.errors[0];
  }

  test("an interpreter that does not exist", async () => {
    window.settings = { "memlint.interpreter": path.join(scratch, "no-such-venv", "bin", "python") };
    await activate();
    assert.equal(
      oneError(),
      `memlint: the interpreter set in memlint.interpreter was not found: ${path.join(scratch, "no-such-venv", "bin", "python")}`,
    );
  });

  test("no interpreter and no memlint on PATH", async () => {
    process.env.PATH = path.join(scratch, "empty-bin");
    await activate();
    assert.match(oneError(), /^memlint: the memlint command was not found on PATH; install it with pip install "memlint-torch\[server\] @ git\+https:\/\/github.com\/memlint\/memlint", or set memlint.interpreter/);
  });

  test("memlint from PATH that cannot start: its own last line", async () => {
    const memlint = script('echo "Usage: memlint server" >&2\necho "Error: No such option: --bogus" >&2\nexit 2', "memlint");
    process.env.PATH = `${path.dirname(memlint)}${path.delimiter}${originalPath}`;
    window.settings = { "memlint.args": ["--bogus"] };
    await activate();
    assert.equal(oneError(), "memlint: Error: No such option: --bogus");
    assert.ok(window.output.includes("Usage: memlint server\nError: No such option: --bogus\n"), "the whole stderr is in the output");
  });

  test("an interpreter that fails: its last line, and which interpreter", async () => {
    const python = script('echo "Fatal Python error: init_fs_encoding: failed to get the Python codec" >&2\nexit 1');
    window.settings = { "memlint.interpreter": python };
    await activate();
    assert.equal(oneError(), `memlint: Fatal Python error: init_fs_encoding: failed to get the Python codec (interpreter: ${python})`);
  });
});

describe("with the real memlint", { skip: (!posix || !realPython) && "set MEMLINT_TEST_PYTHON to a Python with memlint[server]" }, () => {
  test("the command the extension starts is a language server that finds a leak", { timeout: 120_000 }, async () => {
    fs.writeFileSync(
      path.join(scratch, "train.py"),
      "losses = []\nfor batch in loader:\n    loss = model(batch).sum()\n    loss.backward()\n    losses.append(loss)\n",
    );
    window.settings = { "memlint.interpreter": realPython };
    await activate();
    assert.deepEqual(window.errors, []);
    const { command, args, options } = window.clients[0].serverOptions;
    const child = spawn(command, args, { cwd: options.cwd, stdio: ["pipe", "pipe", "inherit"] });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    const connection = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
    const published = new Promise<{ uri: string; diagnostics: { code: string }[] }>((resolve) =>
      connection.onNotification("textDocument/publishDiagnostics", resolve),
    );
    connection.listen();
    const uri = `file://${path.join(scratch, "train.py")}`;
    try {
      const initialized = await connection.sendRequest<{ serverInfo: { name: string } }>("initialize", {
        processId: process.pid,
        rootUri: `file://${scratch}`,
        capabilities: {},
      });
      assert.equal(initialized.serverInfo.name, "memlint");
      await connection.sendNotification("initialized", {});
      const text = fs.readFileSync(path.join(scratch, "train.py"), "utf8");
      await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "python", version: 1, text } });
      const diagnostics = await published;
      assert.equal(diagnostics.uri, uri);
      assert.deepEqual(diagnostics.diagnostics.map((d) => d.code), ["ML001"]);
      await connection.sendRequest("shutdown");
      await connection.sendNotification("exit");
      assert.equal(await exited, 0);
    } finally {
      connection.dispose();
      if (child.exitCode === null) {
        child.kill();
      }
    }
  });

  const install = 'pip install "memlint-torch[server] @ git+https://github.com/memlint/memlint"';

  test("an interpreter without memlint", async () => {
    // -I -S: no site-packages and no PYTHONPATH, so this Python cannot import memlint.
    const bare = script(`exec "${realPython}" -I -S "$@"`);
    window.settings = { "memlint.interpreter": bare };
    await activate();
    assert.deepEqual(window.errors, [`memlint: memlint is not installed for ${bare}; run: "${bare}" -m ${install}`]);
    assert.equal(window.clients.length, 0);
  });

  test("an interpreter with memlint but not its server extra", async () => {
    // -S and PYTHONPATH: memlint's own folder only, so this Python has memlint and no pygls.
    const root = execFileSync(realPython!, ["-c", "import memlint, os; print(os.path.dirname(os.path.dirname(memlint.__file__)))"], {
      encoding: "utf8",
    }).trim();
    const noPygls = script(`PYTHONPATH="${root}" exec "${realPython}" -S "$@"`);
    window.settings = { "memlint.interpreter": noPygls };
    await activate();
    assert.deepEqual(window.errors, [`memlint: memlint's language server needs its server extra for ${noPygls}; run: "${noPygls}" -m ${install}`]);
    assert.equal(window.clients.length, 0);
  });

  test("memlint from PATH starts once to be checked, then for the client", async () => {
    const memlint = script(`exec "${realPython}" -m memlint "$@"`, "memlint");
    process.env.PATH = `${path.dirname(memlint)}${path.delimiter}${originalPath}`;
    await activate();
    assert.deepEqual(window.errors, []);
    assert.deepEqual(window.clients.map((c) => [c.serverOptions.command, c.serverOptions.args, c.state]), [["memlint", ["server"], "running"]]);
  });

  test("memlint from PATH without its server extra: memlint's own line", async () => {
    // This memlint's Python cannot import pygls: memlint itself says what to install.
    const memlint = script(
      `exec "${realPython}" -c 'import runpy, sys; sys.modules["pygls"] = None; sys.argv = ["memlint", *sys.argv[1:]]; runpy.run_module("memlint", run_name="__main__")' "$@"`,
      "memlint",
    );
    process.env.PATH = `${path.dirname(memlint)}${path.delimiter}${originalPath}`;
    await activate();
    assert.deepEqual(window.errors, ['memlint: error: the language server needs pygls: pip install "memlint-torch[server]"']);
    assert.equal(window.clients.length, 0);
  });
});

/** Lets pending promise callbacks run until `condition` holds (no timing involved). */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 1000 && !condition(); turn++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.ok(condition());
}
