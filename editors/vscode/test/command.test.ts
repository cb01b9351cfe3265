import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as os from "node:os";
import * as path from "node:path";
import { commandLine, expandPath, serverCommand } from "../src/command";

test("the interpreter setting's whitespace is not part of the path, and an empty one is no setting", () => {
  const settings = { enable: true, interpreter: "  /venv/bin/python ", args: [] };
  assert.equal(serverCommand(settings, undefined, undefined).command, "/venv/bin/python");
  assert.equal(serverCommand({ ...settings, interpreter: "   " }, undefined, undefined).source, "path");
});

test("~ and ${userHome} are the home folder; ${workspaceFolder} stays without a folder", () => {
  assert.equal(expandPath("~/venvs/ml/bin/python", undefined), path.join(os.homedir(), "venvs/ml/bin/python"));
  assert.equal(expandPath("${userHome}/py", undefined), `${os.homedir()}/py`);
  assert.equal(expandPath("${workspaceFolder}/.venv/bin/python", undefined), "${workspaceFolder}/.venv/bin/python");
});

test("the logged command line quotes parts with spaces", () => {
  assert.equal(
    commandLine({ command: "/My Envs/python", args: ["-m", "memlint", "server"], source: "setting" }),
    '"/My Envs/python" -m memlint server',
  );
});
