-- Neovim (0.7+) as a second, independent LSP client for hiera-ls.
--
-- Reads its job from environment variables, starts the server with vim.lsp.start_client,
-- attaches it to one buffer, waits (vim.wait) for diagnostics, asks for a hover, and writes
-- everything as JSON to HIERA_OUT.  Any failure is written there too, then Neovim quits.
local env = vim.env
local out = {}

local function finish()
  local ok, encoded = pcall(vim.fn.json_encode, out)
  if not ok then
    encoded = vim.fn.json_encode({ error = "could not encode the result: " .. tostring(encoded) })
  end
  vim.fn.writefile({ encoded }, env.HIERA_OUT)
  vim.cmd("qa!")
end

local function run()
  vim.cmd("edit " .. vim.fn.fnameescape(env.HIERA_FILE))
  local bufnr = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = "hiera-ls",
    cmd = { env.HIERA_PYTHON, "-m", "hiera_ls", "serve" },
    root_dir = env.HIERA_ROOT,
    init_options = { hiera = { factsProfile = env.HIERA_PROFILE } },
  })
  if not client_id then
    out.error = "vim.lsp.start_client failed"
    return
  end
  vim.lsp.buf_attach_client(bufnr, client_id)
  out.got_diagnostics = vim.wait(60000, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 20)
  out.diagnostics = vim.diagnostic.get(bufnr)
  local client = vim.lsp.get_client_by_id(client_id)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = tonumber(env.HIERA_HOVER_LINE), character = tonumber(env.HIERA_HOVER_CHARACTER) },
  }
  local response = client.request_sync("textDocument/hover", params, 60000, bufnr)
  out.hover = response and response.result or vim.NIL
  out.hover_error = response and response.err or vim.NIL
  out.offset_encoding = client.offset_encoding
  client.stop()
  vim.wait(5000, function()
    return client.is_stopped()
  end, 20)
end

local ok, err = pcall(run)
if not ok then
  out.error = tostring(err)
end
finish()
