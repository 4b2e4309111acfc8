// Counterfactual pairs of the shapes world (model/shapes/counterfactual.h): each change alters
// exactly what it names, the moved object's relation flips, and a change that cannot be made
// gives nothing.
#include "model/shapes/counterfactual.h"

#include <QTest>

#include <cmath>
#include "tests/test_main.h"

using namespace cl;

namespace {

SceneSpec twoObjects(uint64_t seed) {
    for (;; ++seed) {
        SceneSpec s = randomSpec(seed, 128, 2);
        if (s.objects.size() == 2)
            return s;
    }
}

bool samePlace(const SceneObject& a, const SceneObject& b) {
    return a.cx == b.cx && a.cy == b.cy;
}

} // namespace

class TestCounterfactual : public QObject {
    Q_OBJECT
  private slots:
    void eachChangeAltersWhatItNames();
    void positionFlipsTheRelation();
    void impossibleChangesGiveNothing();
};

void TestCounterfactual::eachChangeAltersWhatItNames() {
    const SceneSpec clean = twoObjects(3);
    const SceneObject& o = clean.objects[1];
    const auto colour = counterfactual(clean, 1, Change::Colour);
    QVERIFY(colour);
    QVERIFY(colour->objects[1].colour != o.colour);
    QCOMPARE(colour->objects[1].shape, o.shape);
    QVERIFY(samePlace(colour->objects[1], o));
    QVERIFY(sceneCaptions(*colour) != sceneCaptions(clean));
    const auto shape = counterfactual(clean, 1, Change::Shape);
    QVERIFY(shape);
    QVERIFY(shape->objects[1].shape != o.shape);
    QCOMPARE(shape->objects[1].colour, o.colour);
    int sized = 0;
    for (uint64_t seed = 0; seed < 20; ++seed) {
        const SceneSpec s = twoObjects(seed);
        if (const auto size = counterfactual(s, 0, Change::Size)) {
            QVERIFY(size->objects[0].size != s.objects[0].size);
            QVERIFY(size->objects[0].radius != s.objects[0].radius);
            QVERIFY(clearlyApart(size->objects[0], size->objects[1]));
            ++sized;
        }
    }
    QVERIFY(sized > 5);
    const auto removed = counterfactual(clean, 0, Change::Remove);
    QVERIFY(removed);
    QCOMPARE(removed->objects.size(), size_t(1));
    QCOMPARE(removed->objects[0].colour, o.colour);
}

void TestCounterfactual::positionFlipsTheRelation() {
    int moved = 0;
    for (uint64_t seed = 0; seed < 40; ++seed) {
        const SceneSpec s = twoObjects(seed);
        const auto m = counterfactual(s, 0, Change::Position);
        if (!m)
            continue;
        QCOMPARE(relation(m->objects[0], m->objects[1]),
                 inverseRelation(relation(s.objects[0], s.objects[1])));
        QVERIFY(clearlyApart(m->objects[0], m->objects[1]));
        QVERIFY(!samePlace(m->objects[0], s.objects[0]));
        ++moved;
    }
    QVERIFY2(moved > 10, qPrintable(QString::number(moved)));
}

void TestCounterfactual::impossibleChangesGiveNothing() {
    SceneSpec one = twoObjects(5);
    one.objects.pop_back();
    QVERIFY(!counterfactual(one, 0, Change::Position));
    QVERIFY(!counterfactual(one, 0, Change::Remove));
    QVERIFY(!counterfactual(one, 3, Change::Colour));
    QCOMPARE(changeName(Change::Position), std::string("position"));
}

CL_TEST_GUILESS_MAIN(TestCounterfactual)
#include "tst_counterfactual.moc"
