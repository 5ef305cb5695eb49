#!/usr/bin/env bash
# Installs code-server 4.100.3 (the last release that runs on Node 20) into DEST
# without its postinstall, which downloads ripgrep from GitHub and rolls the whole
# install back when offline. Native modules are rebuilt from source instead.
set -euo pipefail
DEST="$1"
[ -x "$DEST/node_modules/.bin/code-server" ] && [ -f "$DEST/.complete" ] && exit 0
rm -rf "$DEST"; mkdir -p "$DEST"; cd "$DEST"
export npm_config_unsafe_perm=true npm_config_yes=true npm_config_fund=false npm_config_audit=false
echo '{"name":"cs","private":true}' > package.json
npm install --no-save code-server@4.100.3 --ignore-scripts >install.log 2>&1
npm rebuild argon2 >>install.log 2>&1
cd node_modules/code-server/lib/vscode
npm install --omit=dev --ignore-scripts >>"$DEST/install.log" 2>&1
mkdir -p node_modules/@vscode/ripgrep/bin
ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
npm rebuild >>"$DEST/install.log" 2>&1
ln -sfn node_modules node_modules.asar
(cd extensions && npm install --omit=dev >>"$DEST/install.log" 2>&1)
touch "$DEST/.complete"
