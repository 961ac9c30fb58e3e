# Writes the release into the Homebrew formula (Formula/fleet-hooks.rb): its homepage, url,
# sha256 and head, from the source archive the release attaches. Run in script mode by the
# release workflow (.github/workflows/release.yml), which then commits the formula:
#   cmake -DFORMULA=Formula/fleet-hooks.rb -DREPOSITORY=<owner>/<name> -DVERSION=<x.y.z>
#         -DARCHIVE=dist/fleet-hooks-<x.y.z>-source.tar.gz -P cmake/HomebrewFormula.cmake
# The url is where GitHub serves that asset of the release v<x.y.z>; the sha256 is the
# archive's own. Fails, changing nothing, when a field is missing from the formula.
cmake_policy(VERSION 3.25)
foreach(variable FORMULA REPOSITORY VERSION ARCHIVE)
  if(NOT DEFINED ${variable} OR "${${variable}}" STREQUAL "")
    message(FATAL_ERROR "HomebrewFormula: -D${variable}=... is needed")
  endif()
endforeach()
if(NOT REPOSITORY MATCHES "^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
  message(FATAL_ERROR "HomebrewFormula: REPOSITORY '${REPOSITORY}' is not <owner>/<name>")
endif()
if(NOT VERSION MATCHES "^[0-9]+(\\.[0-9]+)*$")
  message(FATAL_ERROR "HomebrewFormula: VERSION '${VERSION}' is not a version number")
endif()
get_filename_component(archive_name "${ARCHIVE}" NAME)
if(NOT archive_name STREQUAL "fleet-hooks-${VERSION}-source.tar.gz")
  message(FATAL_ERROR "HomebrewFormula: the archive of ${VERSION} is "
                      "fleet-hooks-${VERSION}-source.tar.gz, not ${archive_name}")
endif()
file(SHA256 "${ARCHIVE}" archive_sha256)
set(site "https://github.com/${REPOSITORY}")
file(READ "${FORMULA}" text)
# Each field is one line of the class body, indented by two spaces.
foreach(field homepage url sha256 head)
  if(field STREQUAL "homepage")
    set(value "homepage \"${site}\"")
  elseif(field STREQUAL "url")
    set(value "url \"${site}/releases/download/v${VERSION}/${archive_name}\"")
  elseif(field STREQUAL "sha256")
    set(value "sha256 \"${archive_sha256}\"")
  else()
    set(value "head \"${site}.git\", branch: \"main\"")
  endif()
  string(REGEX MATCHALL "\n  ${field} [^\n]*" lines "${text}")
  list(LENGTH lines count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "HomebrewFormula: ${FORMULA} has ${count} lines '  ${field} ...', not one")
  endif()
  string(REGEX REPLACE "\n  ${field} [^\n]*" "\n  ${value}" text "${text}")
endforeach()
file(WRITE "${FORMULA}" "${text}")
message(STATUS "HomebrewFormula: ${FORMULA} installs ${VERSION} from ${site} (sha256 ${archive_sha256})")
