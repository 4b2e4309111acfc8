#pragma once
// train's data-parallel options (issue 17): --world-size N --rank R --master HOST:PORT and
// --timeout S, with the variables torchrun sets (WORLD_SIZE, RANK, MASTER_ADDR, MASTER_PORT)
// filling in whatever the command line leaves out.
#include "model/api/trainer.h"

namespace CLI {
class App;
}

namespace cl::cli {

void addParallelOptions(CLI::App& train, ParallelOptions& options);
// After parsing: the environment's values where no option was given; throws one line on a
// malformed value.
void resolveParallel(const CLI::App& train, ParallelOptions& options);

} // namespace cl::cli
