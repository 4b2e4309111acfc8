#pragma once
// The look of a whole picture (scene.h's Look): paper grain under the objects; frame, uneven
// light, shadow, blur, sensor noise and JPEG artefacts over them. Deterministic per look.seed.
#include "model/shapes/scene.h"

namespace cl::shapes {

void paintTexture(const SceneSpec& spec, std::vector<uint8_t>& rgb);
void applyLook(const SceneSpec& spec, std::vector<uint8_t>& rgb);

// A lamp's falloff, a cast shadow, vignetting, a crease and the light's colour (scene_photo.cpp).
bool hasPhotoLight(const Look& look);
void paintPhotoLight(const SceneSpec& spec, std::vector<uint8_t>& rgb);

// JPEG's lossy step on an RGB picture: 4:2:0 chroma, 8x8 DCT, the standard tables at `quality`.
void jpegArtefacts(std::vector<uint8_t>& rgb, int width, int height, int quality);

} // namespace cl::shapes
