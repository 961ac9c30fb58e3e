#include "process_name.h"

namespace fleet::test {

// A process is named after its executable on macOS (KERN_PROC_PID's p_comm), and no call
// renames it.
void name_this_process(const char* /*name*/) {}

}  // namespace fleet::test
