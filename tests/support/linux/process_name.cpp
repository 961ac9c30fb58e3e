#include "process_name.h"

#include <sys/prctl.h>

namespace fleet::test {

void name_this_process(const char* name) {
  ::prctl(PR_SET_NAME, name);
}

}  // namespace fleet::test
