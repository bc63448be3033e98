"""LSP features as pure functions over the project and the engine; LSP types appear here first."""
