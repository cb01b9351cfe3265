// The interpreter selected in the Python extension (ms-python.python), through
// its `environments` API, when that extension is installed.
import * as vscode from "vscode";

export const PYTHON_EXTENSION_ID = "ms-python.python";

/** The part of the Python extension's API used here (see @vscode/python-extension). */
interface PythonApi {
  environments: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { id: string; path: string };
    resolveEnvironment(environment: { id: string; path: string } | string): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
  };
}

async function pythonApi(): Promise<PythonApi | undefined> {
  const extension = vscode.extensions.getExtension<PythonApi>(PYTHON_EXTENSION_ID);
  if (extension === undefined) {
    return undefined;
  }
  const api = extension.isActive ? extension.exports : await extension.activate();
  return api?.environments === undefined ? undefined : api;
}

/** The selected interpreter's executable for `resource`'s folder, or undefined without the extension or a selection. */
export async function selectedInterpreter(resource: vscode.Uri | undefined): Promise<string | undefined> {
  const api = await pythonApi();
  if (api === undefined) {
    return undefined;
  }
  const environment = await api.environments.resolveEnvironment(api.environments.getActiveEnvironmentPath(resource));
  return environment?.executable.uri?.fsPath;
}

/** Calls `listener` when the user selects another interpreter; nothing without the Python extension. */
export async function onInterpreterChange(listener: () => void): Promise<vscode.Disposable | undefined> {
  const api = await pythonApi();
  return api?.environments.onDidChangeActiveEnvironmentPath(listener);
}
