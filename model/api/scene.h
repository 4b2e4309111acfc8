#pragma once
// The "shapes" captioning world: deterministic scenes of 1 to 3 objects on a varied background,
// with ground truth and reference captions. Pure C++ (no torch, no Qt): identical on every
// machine for the same seed.
//
// Caption grammar (at most 15 words):
//   object   := "a" SIZE COLOUR SHAPE
//   1 object := object
//   2 objects:= object RELATION object
//   3 objects:= object RELATION object "and" object
//   RELATION := "left of" | "right of" | "above" | "below"
// Objects are mentioned in canonical order: large before small, then colour order (red, green,
// blue, yellow, purple), then shape order (circle, square, triangle, star), then left-to-right.
// The relation says where the first object lies relative to the second, along the axis on which
// they are further apart (scenes are drawn so that axis is clear).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace cl {

enum class Shape { Circle, Square, Triangle, Star };
enum class Colour { Red, Green, Blue, Yellow, Purple };
enum class Size { Small, Large };

inline constexpr int kShapeCount = 4, kColourCount = 5;

struct Box {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0; // pixels, inclusive-exclusive
    bool contains(double x, double y, double tolerance = 0) const {
        return x >= x0 - tolerance && x < x1 + tolerance && y >= y0 - tolerance &&
               y < y1 + tolerance;
    }
};

struct SceneObject {
    Shape shape = Shape::Circle;
    Colour colour = Colour::Red;
    Size size = Size::Small;
    double cx = 0, cy = 0;        // centre, pixels
    double radius = 0;            // circumscribed radius, pixels
    std::array<uint8_t, 3> rgb{}; // the drawn colour (the named colour with a little jitter)
    Box box() const;
};

struct Background {
    std::array<uint8_t, 3> from{}, to{}; // gradient end colours (muted)
    int direction = 0;                   // one of 8 gradient directions
    int noise = 0;                       // per-pixel noise amplitude
    uint64_t noiseSeed = 0;
};

struct SceneSpec {
    int side = 128;
    Background background;
    std::vector<SceneObject> objects;
};

struct Scene {
    SceneSpec spec;
    std::vector<uint8_t> rgb;                // side * side * 3, row-major
    std::vector<std::vector<uint8_t>> masks; // per object: 1 where it covers at least half a pixel
    std::vector<std::string> captions;       // canonical first, then the other valid phrasings
};

// A random layout for `seed` (objects do not overlap; relations are unambiguous).
SceneSpec randomSpec(uint64_t seed, int side = 128);
Scene renderScene(const SceneSpec& spec);
inline Scene generateScene(uint64_t seed, int side = 128) {
    return renderScene(randomSpec(seed, side));
}

// Reference captions of a layout: the canonical one first.
std::vector<std::string> sceneCaptions(const SceneSpec& spec);
// Objects in canonical mention order (indices into spec.objects).
std::vector<size_t> mentionOrder(const SceneSpec& spec);
// "left of" / "right of" / "above" / "below": where a lies relative to b.
std::string relation(const SceneObject& a, const SceneObject& b);
// The same relation seen from the other object ("left of" <-> "right of", "above" <-> "below").
std::string inverseRelation(const std::string& relation);

std::string shapeName(Shape s);
std::string colourName(Colour c);
std::string sizeName(Size s);
std::array<uint8_t, 3> namedColour(Colour c);
// The vocabulary of the shapes world, special tokens first.
std::vector<std::string> shapesVocabulary();

// 64-bit FNV-1a of the pixels (tests pin scenes by it).
uint64_t pixelHash(const std::vector<uint8_t>& rgb);

} // namespace cl
