#pragma once
// CL_TEST_MAIN, CL_TEST_GUILESS_MAIN, CL_TEST_APPLESS_MAIN: Qt Test's QTEST_*MAIN, plus one
// option of ours, `--except f1,f2`: run every test function of the class but those. CTest runs a
// slow function as a test of its own (cl_test_part in tests/CMakeLists.txt) and the rest of the
// file with --except, so no function runs twice and none is forgotten (a name that is not a test
// function fails: Qt Test refuses unknown functions).
//
// Also CL_REQUIRE(condition, what): a test that needs a tool or package skips without it on a
// developer's machine, and fails under CI=true, where scripts/install-deps.sh installed it.
#include <QCoreApplication>
#include <QMetaMethod>
#include <QStringList>
#include <QTest>

#include <cstring>
#include <string>
#include <vector>

namespace cltest {

// Qt Test's own rule for a test function: a private slot without parameters, not a fixture and
// not a _data function.
inline QStringList testFunctions(const QMetaObject& mo) {
    static const QStringList fixtures{"initTestCase", "cleanupTestCase", "init", "cleanup",
                                      "initTestCase_data"};
    QStringList out;
    for (int i = mo.methodOffset(); i < mo.methodCount(); ++i) {
        const QMetaMethod m = mo.method(i);
        const QString name = QString::fromLatin1(m.name());
        if (m.methodType() == QMetaMethod::Slot && m.access() == QMetaMethod::Private &&
            m.parameterCount() == 0 && !fixtures.contains(name) && !name.endsWith("_data"))
            out << name;
    }
    return out;
}

// argv with "--except a,b" replaced by the names of the other test functions.
class ExceptArgs {
  public:
    ExceptArgs(const QMetaObject& mo, int argc, char** argv) {
        QStringList except;
        for (int i = 0; i < argc; ++i) {
            if (std::strcmp(argv[i], "--except") == 0 && i + 1 < argc) {
                except = QString::fromLocal8Bit(argv[++i]).split(',', Qt::SkipEmptyParts);
                continue;
            }
            m_store.emplace_back(argv[i]);
        }
        const QStringList all = testFunctions(mo);
        for (const QString& name : except)
            if (!all.contains(name))
                m_store.push_back(name.toStdString()); // Qt Test fails on the unknown name
        for (const QString& name : all)
            if (!except.isEmpty() && !except.contains(name))
                m_store.push_back(name.toStdString());
        // CL_TEST_TIMES_DIR=DIR: each function's time too, as JUnit XML (scripts/test-times.sh).
        const QString times = qEnvironmentVariable("CL_TEST_TIMES_DIR");
        if (!times.isEmpty() && argc > 0) {
            const QString file = QString("%1/%2-%3.xml,junitxml")
                                     .arg(times, QString::fromLocal8Bit(argv[0]).section('/', -1))
                                     .arg(QCoreApplication::applicationPid());
            for (const char* a : {"-o", "-,txt", "-o"})
                m_store.emplace_back(a);
            m_store.push_back(file.toStdString());
        }
        for (auto& s : m_store)
            m_ptrs.push_back(s.data());
        m_ptrs.push_back(nullptr);
    }
    int argc() const { return static_cast<int>(m_ptrs.size()) - 1; }
    char** argv() { return m_ptrs.data(); }

  private:
    std::vector<std::string> m_store;
    std::vector<char*> m_ptrs;
};

inline bool underCi() {
    return qEnvironmentVariable("CI") == "true";
}

} // namespace cltest

// Qt Test's QTEST_MAIN_WRAPPER with argv rewritten first.
#define CL_TEST_MAIN_WRAPPER(TestObject, ...)                                                      \
    int main(int argc_, char* argv_[]) {                                                           \
        cltest::ExceptArgs args_(TestObject::staticMetaObject, argc_, argv_);                      \
        int argc = args_.argc();                                                                   \
        char** argv = args_.argv();                                                                \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                         \
        __VA_ARGS__                                                                                \
        TestObject tc;                                                                             \
        QTEST_SET_MAIN_SOURCE_PATH                                                                 \
        return QTest::qExec(&tc, argc, argv);                                                      \
    }
#define CL_TEST_MAIN(TestObject) CL_TEST_MAIN_WRAPPER(TestObject, QTEST_MAIN_SETUP())
#define CL_TEST_GUILESS_MAIN(TestObject)                                                           \
    CL_TEST_MAIN_WRAPPER(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
#define CL_TEST_APPLESS_MAIN(TestObject) CL_TEST_MAIN_WRAPPER(TestObject, (void)0;)

#define CL_REQUIRE(condition, what)                                                                \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            if (cltest::underCi())                                                                 \
                QFAIL(qPrintable(QString("%1 is missing; CI installs it "                          \
                                         "(scripts/install-deps.sh)")                              \
                                     .arg(what)));                                                 \
            QTest::qSkip(qPrintable(QString("%1 is missing (scripts/install-deps.sh installs it)") \
                                        .arg(what)),                                               \
                         __FILE__, __LINE__);                                                      \
            return;                                                                                \
        }                                                                                          \
    } while (0)
