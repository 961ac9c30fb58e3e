#pragma once
// Making a file's data durable (platform seam, README.md).

namespace fleet::platform {

// Writes the file's data (and what is needed to read it back) to stable storage: 0, or -1
// with errno set (Linux: fdatasync; macOS: fcntl F_FULLFSYNC, which also empties the drive's
// cache as fsync does not there, else fsync where the file system refuses it).
int sync_file_data(int fd);

}  // namespace fleet::platform
