# The machine, read without starting a process: the kernel's /proc/sys/kernel/arch (what
# `uname -m` prints) with the read builtin, a few bytes. Sets kernel_machine, or leaves it empty
# where the kernel has no such file (older kernels, other systems); a caller then asks uname.
kernel_machine=
{ read -r kernel_machine </proc/sys/kernel/arch; } 2>/dev/null
