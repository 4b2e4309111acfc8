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

// How an object is drawn. The classic world draws every object Solid, upright, anti-aliased.
enum class Fill { Solid, Bordered, Outline };

struct SceneObject {
    Shape shape = Shape::Circle;
    Colour colour = Colour::Red;
    Size size = Size::Small;
    double cx = 0, cy = 0;        // centre, pixels
    double radius = 0;            // circumscribed radius, pixels
    std::array<uint8_t, 3> rgb{}; // the drawn colour (a colour inside its name's region)
    double angle = 0;             // rotation, radians, clockwise (circles ignore it)
    Fill fill = Fill::Solid;
    double stroke = 0;                // Bordered/Outline: line width, pixels (centred on the edge)
    std::array<uint8_t, 3> edgeRgb{}; // Bordered: the border's colour
    // The drawn extent, rotation and stroke included.
    Box box() const;
};

struct Background {
    std::array<uint8_t, 3> from{}, to{}; // gradient end colours (muted)
    int direction = 0;                   // one of 8 gradient directions
    int noise = 0;                       // per-pixel noise amplitude
    uint64_t noiseSeed = 0;
};

// What happens to the picture after the objects are drawn, as on a slide, a photo of paper or a
// scan (model/shapes/scene_look.cpp). All zero: the classic world's look.
struct Look {
    bool hardEdges = false;            // objects drawn without anti-aliasing
    int frame = 0;                     // a border around the canvas, pixels
    std::array<uint8_t, 3> frameRgb{}; //   and its colour
    double texture = 0;                // paper grain amplitude (grey levels)
    double light = 0;                  // uneven light: brightness 1 +- light across the page
    int lightDirection = 0;            //   one of 8 directions
    double shadow = 0;                 // a soft shadow's depth (0..1)
    double shadowX = 0, shadowY = 0;   //   its centre, as fractions of the canvas
    double blur = 0;                   // Gaussian blur sigma, pixels
    int sensorNoise = 0;               // per-pixel noise amplitude after the light
    int jpegQuality = 0;               // 1..100: JPEG artefacts at this quality; 0 none
    uint64_t seed = 0;                 // texture and sensor noise
    // Paper photographed under a desk lamp or beside a phone (scene_photo.cpp): none of it is an
    // object, however dark. All zero: none.
    double lamp = 0;            // one side darker by up to this fraction (smooth falloff)
    double lampAngle = 0;       //   the direction it darkens towards, radians
    double castShadow = 0;      // a phone's or hand's shadow from one edge: its depth
    double castAngle = 0;       //   the direction it comes from, radians
    double castEdge = 0;        //   where its edge lies, from the centre (fraction of the canvas)
    double castSoftness = 0.05; //   its penumbra, fraction of the canvas
    double vignette = 0;        // corners darker by up to this fraction
    double crease = 0;          // a fold: a bright line beside a dark one, this strong
    double creaseAngle = 0, creaseOffset = 0, creaseWidth = 0.008;
    std::array<double, 3> whiteBalance{1, 1, 1}; // per-channel gains: a warm lamp, a cool sky
};

struct SceneSpec {
    int side = 128; // the layout's square (classic scenes, the editor, lessons)
    int canvasWidth = 0, canvasHeight = 0; // a canvas of another shape; 0: side
    Background background;
    Look look;
    std::vector<SceneObject> objects;
    int width() const { return canvasWidth > 0 ? canvasWidth : side; }
    int height() const { return canvasHeight > 0 ? canvasHeight : side; }
};

struct Scene {
    SceneSpec spec;
    std::vector<uint8_t> rgb;                // width * height * 3, row-major
    std::vector<std::vector<uint8_t>> masks; // per object: 1 where it covers at least half a pixel
    std::vector<std::string> captions;       // canonical first, then the other valid phrasings
};

// A random layout for `seed` (objects do not overlap; relations are unambiguous). At most
// `maxObjects` of the 1-3 objects the seed draws (the training's object curriculum; the seed's
// random stream is the same either way).
SceneSpec randomSpec(uint64_t seed, int side = 128, int maxObjects = 3);
// Two objects far enough apart, and along one axis enough more than the other, that their
// relation is never in doubt (the layout's rule).
bool clearlyApart(const SceneObject& a, const SceneObject& b);
Scene renderScene(const SceneSpec& spec);
inline Scene generateScene(uint64_t seed, int side = 128) { // the classic world
    return renderScene(randomSpec(seed, side));
}
// The varied world the shipped models train on: the same grammar, objects and relation rules,
// drawn as people draw them (model/shapes/README.md lists every variation). Deterministic.
SceneSpec randomVariedSpec(uint64_t seed);
inline Scene generateVariedScene(uint64_t seed) {
    return renderScene(randomVariedSpec(seed));
}
// Which world a seed is drawn from.
enum class World { Classic, Varied };
inline Scene generateScene(uint64_t seed, World world) {
    return world == World::Varied ? generateVariedScene(seed) : renderScene(randomSpec(seed));
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
// Each colour name as a region of hue (degrees, lo may be negative), saturation and value; the
// gaps between regions (orange, lime, cyan, indigo, pink) are never drawn, so a name is never a
// matter of taste. The varied world draws colours uniformly inside these regions.
struct ColourRegion {
    double hueLo, hueHi, satLo, satHi, valLo, valHi;
};
ColourRegion colourRegion(Colour c);
std::array<uint8_t, 3> hsvToRgb(double hueDegrees, double saturation, double value);
// The vocabulary of the shapes world, special tokens first.
std::vector<std::string> shapesVocabulary();

// 64-bit FNV-1a of the pixels (tests pin scenes by it).
uint64_t pixelHash(const std::vector<uint8_t>& rgb);

} // namespace cl
