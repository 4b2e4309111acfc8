#pragma once
// The seed's sinusoidal positional encoding, computed as the seed computes it (float32), and the
// 2D code of our image models; pure functions for the positional-encoding panel.
#include <vector>

namespace cl::ui {

// pe[pos, 2i] = sin(pos * 1e-4^(2i/W)), pe[pos, 2i+1] = cos(same); row-major (positions x width).
std::vector<float> positionalTable(int positions, int width);
// Position similarity (positions x positions): dot products, or cosines when `cosine`.
std::vector<float> positionSimilarity(const std::vector<float>& table, int positions, int width,
                                      bool cosine);
// The image models' 2D code (grid*grid x width): rows on the first width/2 channels, columns on
// the rest, each the 1D table of width/2 (image_encoder.h).
std::vector<float> gridCode(int grid, int width);
// Cosine similarity of cell `cell`'s code to every cell (grid*grid values).
std::vector<float> cellSimilarity(const std::vector<float>& code, int cells, int width, int cell);

} // namespace cl::ui
