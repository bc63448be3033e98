// The two halves of ms-python.python's public API that the Hiera extension reads
// (environments and the older settings), answering with one interpreter: the one the test
// names. It runs nothing itself.
const vscode = require('vscode');

const interpreter = process.env.HIERA_LS_TEST_PYTHON_INTERPRETER || '';

function activate() {
    const none = { dispose() {} };
    return {
        environments: {
            getActiveEnvironmentPath: () => ({ id: interpreter, path: interpreter }),
            resolveEnvironment: async () => ({ executable: { uri: vscode.Uri.file(interpreter) } }),
            onDidChangeActiveEnvironmentPath: () => none,
        },
        settings: {
            getExecutionDetails: () => ({ execCommand: [interpreter] }),
            onDidChangeExecutionDetails: () => none,
        },
    };
}

module.exports = { activate, deactivate() {} };
