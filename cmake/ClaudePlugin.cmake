# Packs the Claude Code plugin for every architecture built: joins the installed plugin trees
# (<prefix>/share/fleet-hooks of each architecture's `cmake --install`: the local marketplace
# .claude-plugin/marketplace.json and claude-plugin/ with its bin/linux-<arch>/ or
# bin/darwin-<arch>/) into one
# plugin whose bin/ selectors run the binary for the machine, and archives it. Run in script
# mode by `./install.sh --package`:
#   cmake -DVERSION=<x.y.z> -DOUT_DIR=<dir> -DTREES="<share/fleet-hooks of x86_64>;<… aarch64>;…"
#         -P cmake/ClaudePlugin.cmake
# writes OUT_DIR/fleet-hooks-claude-plugin-<version>.tar.gz, holding
# fleet-hooks-claude-plugin-<version>/ (.claude-plugin/marketplace.json, claude-plugin/), which
# a user unpacks and adds: `claude plugin marketplace add <that directory>`, then
# `claude plugin install fleet-hooks@fleet-hooks`.
set(name fleet-hooks-claude-plugin-${VERSION})
set(staging ${OUT_DIR}/.${name}.staging)
set(plugin ${staging}/${name}/claude-plugin)
file(REMOVE_RECURSE ${staging})

list(POP_FRONT TREES first)
foreach(file .claude-plugin/marketplace.json claude-plugin/hooks/hooks.json
             claude-plugin/.claude-plugin/plugin.json claude-plugin/bin/resume-guard)
  if(NOT EXISTS ${first}/${file})
    message(FATAL_ERROR "ClaudePlugin: ${first}/${file} does not exist (not an installed plugin)")
  endif()
endforeach()
file(COPY ${first}/.claude-plugin ${first}/claude-plugin DESTINATION ${staging}/${name})

foreach(tree IN LISTS TREES)
  # The same plugin for another machine: identical but for its bin/<system>-<arch>/.
  foreach(file hooks/hooks.json .claude-plugin/plugin.json bin/resume-guard bin/provenance-writer
               bin/fleet-hooks)
    file(READ ${first}/claude-plugin/${file} ours)
    file(READ ${tree}/claude-plugin/${file} theirs)
    if(NOT ours STREQUAL theirs)
      message(FATAL_ERROR "ClaudePlugin: ${tree}/claude-plugin/${file} differs from "
                          "${first}/claude-plugin/${file}: build both with the same settings "
                          "(FLEET_PLUGIN_TOOLS) and version")
    endif()
  endforeach()
  file(GLOB arches LIST_DIRECTORIES true RELATIVE ${tree}/claude-plugin/bin
       ${tree}/claude-plugin/bin/linux-* ${tree}/claude-plugin/bin/darwin-*)
  foreach(arch IN LISTS arches)
    if(EXISTS ${plugin}/bin/${arch})
      message(FATAL_ERROR "ClaudePlugin: two trees hold claude-plugin/bin/${arch}")
    endif()
    file(COPY ${tree}/claude-plugin/bin/${arch} DESTINATION ${plugin}/bin)
  endforeach()
endforeach()

file(REMOVE ${OUT_DIR}/${name}.tar.gz)
execute_process(COMMAND ${CMAKE_COMMAND} -E tar czf ${OUT_DIR}/${name}.tar.gz --format=gnutar
                        ${name}
                WORKING_DIRECTORY ${staging} RESULT_VARIABLE status)
file(REMOVE_RECURSE ${staging})
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ClaudePlugin: archiving ${name} failed: ${status}")
endif()
