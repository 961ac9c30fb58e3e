#include "process/file_writers.h"

// processes_writing() is the platform's (platform/<system>/file_writers.cpp).

namespace fleet {

std::string describe(const FileWriter& writer) {
  return "pid " + std::to_string(writer.pid) + " (" +
         (writer.command.empty() ? "?" : writer.command) + ")";
}

}  // namespace fleet
