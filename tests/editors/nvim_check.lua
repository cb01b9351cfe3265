-- Checks a Neovim snippet of docs/editors.md by hand (Neovim is not a test dependency):
--   cd PROJECT && CHECK_OUT=/tmp/out.txt nvim --headless -u SNIPPET.lua -c "luafile tests/editors/nvim_check.lua" train.py
-- with a train.py that holds a finding. Writes to $CHECK_OUT the diagnostics, the hover
-- of the first one and the code actions offered there; works on Neovim 0.7 to 0.11.
local out = {}
local ok = vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 100)
local first = vim.diagnostic.get(0)[1]
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out, string.format("diagnostic %d:%d %s %s", d.lnum + 1, d.col + 1, d.code or "", d.message))
end
if first then
  vim.api.nvim_win_set_cursor(0, { first.lnum + 1, first.col })
  local params = vim.lsp.util.make_position_params(0, "utf-16")
  for _, r in pairs(vim.lsp.buf_request_sync(0, "textDocument/hover", params, 10000) or {}) do
    if r.result then table.insert(out, "hover " .. vim.split(r.result.contents.value or "", "\n")[1]) end
  end
  params.range = { start = params.position, ["end"] = params.position }
  params.context = { diagnostics = {} }
  for _, r in pairs(vim.lsp.buf_request_sync(0, "textDocument/codeAction", params, 10000) or {}) do
    for _, a in ipairs(r.result or {}) do table.insert(out, "action " .. a.title) end
  end
end
table.insert(out, "diagnostics arrived: " .. tostring(ok))
vim.fn.writefile(out, vim.env.CHECK_OUT)
vim.cmd("qa!")
