#pragma once
// Precompiled header of the model target: LibTorch is by far the slowest include to parse.
#include <torch/torch.h>
