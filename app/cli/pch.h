#pragma once
// Precompiled header of captionlens-cli: CLI11 and nlohmann-json are header-only and large.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <iostream>
