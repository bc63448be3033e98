-- A new user with the README's init.lua: opens two data files of one control repository
-- (the second through an eyaml-free module path) and a manifest, and records what they see.  The job
-- comes from environment variables; the result is written as JSON to HIERA_OUT.
local env = vim.env
local out = {}

local function hiera_clients()
  local found = {}
  for _, client in pairs(vim.lsp.get_active_clients()) do
    if client.name == "hiera-ls" then
      table.insert(found, client)
    end
  end
  return found
end

local function open_and_wait(path)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  local got = vim.wait(60000, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 20)
  return bufnr, got
end

local function run()
  local first, got_first = open_and_wait(env.HIERA_FILE)
  out.filetype = vim.bo[first].filetype
  out.got_diagnostics = got_first
  out.codes = {}
  for _, d in ipairs(vim.diagnostic.get(first)) do
    table.insert(out.codes, d.user_data and d.user_data.lsp and d.user_data.lsp.code or vim.NIL)
  end
  local client = hiera_clients()[1]
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(first) },
    position = { line = tonumber(env.HIERA_HOVER_LINE), character = 3 },
  }
  local response = client.request_sync("textDocument/hover", params, 60000, first)
  out.hover = response and response.result and response.result.contents.value or vim.NIL
  out.root_dir = client.config.root_dir
  vim.cmd("edit " .. vim.fn.fnameescape(env.HIERA_SECOND))
  local second = vim.api.nvim_get_current_buf()
  vim.wait(10000, function()
    return vim.lsp.buf_is_attached(second, client.id)
  end, 20)
  out.second_attached = vim.lsp.buf_is_attached(second, client.id)
  out.servers = #hiera_clients()
  -- a manifest of the repository: Neovim calls it puppet, which the README's setup names
  local manifest, got_manifest = open_and_wait(env.HIERA_MANIFEST)
  out.manifest_filetype = vim.bo[manifest].filetype
  out.manifest_codes = {}
  for _, d in ipairs(vim.diagnostic.get(manifest)) do
    table.insert(out.manifest_codes, d.user_data and d.user_data.lsp and d.user_data.lsp.code or vim.NIL)
  end
  out.manifest_diagnostics = got_manifest
  client.stop()
  vim.wait(5000, function()
    return client.is_stopped()
  end, 20)
end

local ok, err = pcall(run)
if not ok then
  out.error = tostring(err)
end
vim.fn.writefile({ vim.fn.json_encode(out) }, env.HIERA_OUT)
vim.cmd("qa!")
