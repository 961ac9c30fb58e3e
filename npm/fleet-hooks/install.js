// postinstall of the fleet-hooks npm package: puts this machine's binaries (from the optional
// dependency @fleet-hooks/<os>-<cpu>: linux-x64, linux-arm64, darwin-x64, darwin-arm64; hard
// links, or copies where linking fails) in the place of the launcher scripts in bin/, so that
// npm's links run the binaries themselves, with no Node or shell process in between.
// Nothing is downloaded. Never fails the install: without the platform package the launcher
// scripts stay and say what is missing when they run.
"use strict";
const fs = require("fs");
const path = require("path");

const names = ["resume-guard", "provenance-writer", "launch-wrapper", "fleet-hooks"];
const platforms = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64"];
const platform = `${process.platform}-${process.arch}`;

function platformDir() {
  const wanted = `@fleet-hooks/${platform}`;
  try {
    return path.dirname(require.resolve(`${wanted}/package.json`, { paths: [__dirname] }));
  } catch (_) {
    // Installed as a separate global package: a sibling of this one.
    const sibling = path.join(__dirname, "..", "@fleet-hooks", platform);
    return fs.existsSync(path.join(sibling, "package.json")) ? sibling : null;
  }
}

function main() {
  if (!platforms.includes(platform)) {
    console.error(`fleet-hooks: no build for ${platform}; ` +
                  `the executables exist for ${platforms.join(", ")}`);
    return;
  }
  const from = platformDir();
  if (!from) {
    console.error(`fleet-hooks: @fleet-hooks/${platform} is not installed; the bin/ launchers ` +
                  "will say so when run (install it beside fleet-hooks)");
    return;
  }
  for (const name of names) {
    const target = path.join(__dirname, "bin", name);
    const temporary = `${target}.${process.pid}.tmp`;
    const source = path.join(from, "bin", name);
    try {
      fs.linkSync(source, temporary);  // one copy on disk; the same file exec'd
    } catch (_) {
      fs.copyFileSync(source, temporary);  // another file system, or links refused
      fs.chmodSync(temporary, 0o755);
    }
    fs.renameSync(temporary, target);
  }
  console.log(`fleet-hooks: bin/ holds the ${platform} executables from ${from}`);
}

try {
  main();
} catch (error) {
  console.error(`fleet-hooks: install.js: ${error.message}; the bin/ launchers stay in place`);
}
