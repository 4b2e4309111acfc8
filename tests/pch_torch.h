#pragma once
// Precompiled header of the tests that reach inside the model (tests/CMakeLists.txt): LibTorch is
// by far their slowest include. Qt stays out: which QTEST_MAIN a test gets depends on its Qt
// modules, so each test parses Qt Test itself.
#include <torch/torch.h>

#include <caffe2/serialize/inline_container.h>
