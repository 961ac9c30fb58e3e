# The agent CLIs' table as the build's texts need it (the .deb's description and its prerm):
# read from the rows themselves, common/agents/agents.cpp (the CLIs, in order) and each CLI's
# AgentCli row in its home (common/agents/<name>/<name>_cli.cpp), so that a CLI added there
# is named in every text the build writes. Sets, in the caller's scope, one entry per CLI:
#   FLEET_AGENT_NAMES          the names --agent takes: claude;codex;...
#   FLEET_AGENT_DISPLAY_NAMES  their names for people: Claude Code;Codex CLI;...
#   FLEET_AGENT_FILES          the project file install wires: .claude/settings.json;...
# A row it cannot read stops the configuration with the file to look at. The test
# "meta: every list of agent CLIs names all of them" compares what these texts name with
# `fleet-hooks agents`, which prints the same rows as the programs see them.

function(fleet_read_agent_table)
  set(agents_dir ${PROJECT_SOURCE_DIR}/common/agents)
  file(READ ${agents_dir}/agents.cpp list_source)
  string(REGEX MATCHALL "\\.cli = &k[A-Za-z0-9]+Cli" homes "${list_source}")
  if(NOT homes)
    message(FATAL_ERROR "cmake/AgentTable.cmake: no `.cli = &k<Name>Cli` line in ${agents_dir}/agents.cpp")
  endif()
  file(GLOB rows ${agents_dir}/*/*_cli.cpp)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${agents_dir}/agents.cpp ${rows})
  set(names "")
  set(display_names "")
  set(project_files "")
  foreach(home IN LISTS homes)
    string(REGEX REPLACE "^\\.cli = &" "" variable "${home}")
    set(row "")
    foreach(file IN LISTS rows)
      file(READ ${file} source)
      string(FIND "${source}" "constexpr AgentCli ${variable} = {" at)
      if(at GREATER -1)
        string(SUBSTRING "${source}" ${at} -1 row)
        set(row_file ${file})
        break()
      endif()
    endforeach()
    if(NOT row)
      message(FATAL_ERROR "cmake/AgentTable.cmake: no `constexpr AgentCli ${variable} = {` in"
                          " ${agents_dir}/*/*_cli.cpp (agents.cpp names it)")
    endif()
    foreach(field name display_name project_hook_file)
      # The row's own fields, four spaces in (a nested table's fields are further in).
      if(NOT row MATCHES "\n    \\.${field} = \"([^\"]*)\"")
        message(FATAL_ERROR "cmake/AgentTable.cmake: no .${field} in the row ${variable}"
                            " (${row_file})")
      endif()
      set(${field} "${CMAKE_MATCH_1}")
    endforeach()
    list(APPEND names "${name}")
    list(APPEND display_names "${display_name}")
    list(APPEND project_files "${project_hook_file}")
  endforeach()
  set(FLEET_AGENT_NAMES "${names}" PARENT_SCOPE)
  set(FLEET_AGENT_DISPLAY_NAMES "${display_names}" PARENT_SCOPE)
  set(FLEET_AGENT_FILES "${project_files}" PARENT_SCOPE)
endfunction()

# "A, B and C" (`last` "and") or "A, B or C" of the list `items`, into `out`.
function(fleet_word_list out items last)
  list(LENGTH items count)
  if(count LESS 2)
    set(${out} "${items}" PARENT_SCOPE)
    return()
  endif()
  list(POP_BACK items final)
  list(JOIN items ", " text)
  set(${out} "${text} ${last} ${final}" PARENT_SCOPE)
endfunction()
