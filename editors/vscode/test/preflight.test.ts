import { after, test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { preflight } from "../src/preflight";

const posix = process.platform !== "win32";
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "memlint-preflight-"));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

function script(name: string, body: string): string {
  const file = path.join(scratch, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

test("a server still running when the check gives up counts as started, and is ended first", { skip: !posix }, async () => {
  const pidFile = path.join(scratch, "pid");
  const python = script("waits", `echo $$ > "${pidFile}"\nexec sleep 60`);
  const result = await preflight({ command: python, args: [], source: "setting" }, scratch, 200);
  assert.deepEqual(result, { ok: true });
  const pid = Number(fs.readFileSync(pidFile, "utf8"));
  assert.throws(() => process.kill(pid, 0), /ESRCH/, "the waiting server was stopped");
});

test("a check that dies without a word is named", { skip: !posix }, async () => {
  const dies = script("dies", "kill -9 $$");
  const server = await preflight({ command: dies, args: ["server"], source: "path" }, scratch);
  assert.deepEqual(server, { ok: false, message: `memlint: ${dies} server was ended by SIGKILL`, stderr: "" });
  const python = await preflight({ command: dies, args: ["-m", "memlint", "server"], source: "setting" }, scratch);
  assert.deepEqual(python, { ok: false, message: `memlint: ${dies} (checking for memlint) was ended by SIGKILL`, stderr: "" });
});
