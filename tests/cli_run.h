#pragma once
// Running captionlens-cli from a test: its exit code (-1 when it crashed or ran past five minutes,
// room for sanitizer builds), standard output and standard error.
#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace cltest {

struct CliRun {
    int code = -1;
    QByteArray out, err;
};

inline CliRun runCli(const QStringList& args) {
    QProcess p;
    p.start(CL_CLI, args);
    p.waitForFinished(300000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

} // namespace cltest
