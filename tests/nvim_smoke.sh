#!/usr/bin/env bash
# Smoke test with a real editor: Neovim (Debian's package, 0.7 on bookworm) runs headless with the README's
# setup for the yaml filetype, opens a beeuni.yaml with one finding, and this checks that the diagnostic
# arrives from `beeuni-lint lsp` at the right place, and that the server is gone once Neovim quits.
#
# usage: tests/nvim_smoke.sh            (builds the debug binary if needed; BEEUNI_LINT=path to use another)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v nvim >/dev/null; then
    echo "nvim_smoke: installing Debian's neovim package" >&2
    if [ "$(id -u)" = 0 ]; then apt_get=(apt-get); else apt_get=(sudo apt-get); fi
    "${apt_get[@]}" install -y neovim >/dev/null 2>&1 \
        || { "${apt_get[@]}" update >/dev/null && "${apt_get[@]}" install -y neovim >/dev/null; }
fi

bin="${BEEUNI_LINT:-target/debug/beeuni-lint}"
[ -x "$bin" ] || cargo build --quiet --locked
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/project"
cat > "$work/project/beeuni.yaml" <<'YAML'
agents:
  support:
    tools:
      exclude: [bsh]
YAML

cat > "$work/init.lua" <<LUA
local beeuni_client
vim.api.nvim_create_autocmd('FileType', {
  pattern = { 'yaml' },
  callback = function()
    local manifest = vim.fn.findfile('beeuni.yaml', vim.fn.expand('%:p:h') .. ';')
    if manifest == '' then return end
    beeuni_client = beeuni_client or vim.lsp.start_client({
      name = 'beeuni-lint',
      cmd = { '$bin', 'lsp' },
      root_dir = vim.fn.fnamemodify(manifest, ':p:h'),
    })
    vim.lsp.buf_attach_client(0, beeuni_client)
  end,
})
vim.api.nvim_create_autocmd('VimEnter', {
  callback = function()
    vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 20)
    local lines = {}
    for _, d in ipairs(vim.diagnostic.get(0)) do
      local lsp = d.user_data and d.user_data.lsp or {}
      table.insert(lines, string.format('%d:%d %s %s %s', d.lnum + 1, d.col + 1, d.source or '', d.code or lsp.code or '', d.message:gsub('\n.*', '')))
    end
    vim.fn.writefile(lines, '$work/diagnostics.txt')
    vim.cmd('qa!')
  end,
})
LUA

cd "$work/project"
start=$(date +%s%N)
timeout 60 nvim --headless --clean -u "$work/init.lua" beeuni.yaml >/dev/null 2>&1 || true
took=$(( ($(date +%s%N) - start) / 1000000 ))

expected="4:17 beeuni-lint unknown-excluded-tool agent \`support\` excludes \`bsh\`, which is not a known tool: it hides nothing, and \`bash\` stays enabled"
got="$(cat "$work/diagnostics.txt" 2>/dev/null || true)"
if [ "$got" != "$expected" ]; then
    printf 'nvim_smoke: FAILED\nexpected: %s\ngot:      %s\n' "$expected" "$got" >&2
    exit 1
fi
# Neovim sends `shutdown` and `exit` as it quits; give the server a moment to act on them.
for _ in 1 2 3 4 5 6 7 8 9 10; do pgrep -f "^$bin lsp" >/dev/null || break; sleep 0.1; done
if pgrep -f "^$bin lsp" >/dev/null; then
    echo "nvim_smoke: FAILED: the server is still running after Neovim quit" >&2
    exit 1
fi
echo "nvim_smoke: ok ($(nvim --version | head -1), ${took} ms)"
