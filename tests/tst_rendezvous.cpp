// The store data-parallel ranks meet at (model/rendezvous, issue 41): TCPStore's semantics, as
// Gloo uses them, over real loopback sockets; and what a hostile peer can do to it: nothing but
// be dropped. c10d's TCPStore listened on every interface and allocated whatever length a peer
// announced (2^30 bytes for nine bytes sent).
#include "model/rendezvous/client.h"
#include "model/rendezvous/server.h"
#include "model/rendezvous/store_state.h"

#include <QElapsedTimer>
#include <QtTest>

#include <thread>

#include "tests/net_probe.h"
#include "tests/test_main.h"

using namespace cl::rendezvous;
using namespace std::chrono_literals;

class TestRendezvous : public QObject {
    Q_OBJECT
  private slots:
    void behavesAsTcpStore();
    void getWaitsForAnotherRank();
    void listensOnlyWhereMasterSays();
    void admitsEachRankOnce();
    void hostilePeersAreDroppedAndCostNothing();
    void budgetsHold();
    void framesRoundTrip();
};

namespace {

Clock::time_point soon() {
    return Clock::now() + 5s;
}

Request req(Op op, std::vector<std::string> keys = {}, std::string value = {}) {
    Request r;
    r.op = op;
    r.keys = std::move(keys);
    r.value = std::move(value);
    return r;
}

std::string frameOf(uint32_t size) {
    std::string out;
    for (int i = 0; i < 4; ++i)
        out += char((size >> (8 * i)) & 0xff);
    return out;
}

} // namespace

void TestRendezvous::behavesAsTcpStore() {
    Server server("127.0.0.1", 0, 2, 2000ms);
    Client c("127.0.0.1", server.port(), 2, 0, soon());
    c.call(req(Op::Set, {"a"}, "one"), 1s);
    QCOMPARE(c.call(req(Op::Get, {"a"}), 1s).value, std::string("one"));
    QCOMPARE(c.call(req(Op::Check, {"a"}), 1s).number, int64_t(1));
    QCOMPARE(c.call(req(Op::Check, {"a", "b"}), 1s).number, int64_t(0));
    Request add = req(Op::Add, {"n"});
    add.number = 5;
    QCOMPARE(c.call(add, 1s).number, int64_t(5));
    add.number = -2;
    QCOMPARE(c.call(add, 1s).number, int64_t(3));
    QCOMPARE(c.call(req(Op::Get, {"n"}), 1s).value, std::string("3")); // decimal, as TCPStore
    QCOMPARE(c.call(req(Op::NumKeys), 1s).number, int64_t(2));
    // Compare-and-set: swapped only when the value is the expected one; the reply is the value
    // after; a missing key is set only when nothing was expected.
    Request cas = req(Op::CompareSet, {"a"}, "two");
    cas.expected = "zero";
    QCOMPARE(c.call(cas, 1s).value, std::string("one"));
    cas.expected = "one";
    QCOMPARE(c.call(cas, 1s).value, std::string("two"));
    Request fresh = req(Op::CompareSet, {"new"}, "v");
    fresh.expected = "x";
    QCOMPARE(c.call(fresh, 1s).value, std::string("x"));
    QCOMPARE(c.call(req(Op::Check, {"new"}), 1s).number, int64_t(0));
    fresh.expected.clear();
    QCOMPARE(c.call(fresh, 1s).value, std::string("v"));
    QCOMPARE(c.call(req(Op::Delete, {"new"}), 1s).number, int64_t(1));
    QCOMPARE(c.call(req(Op::Delete, {"new"}), 1s).number, int64_t(0));
    // Refusals reach the caller as one line and the connection stays usable.
    add.keys = {"a"};
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, c.call(add, 1s));
    QCOMPARE(c.call(req(Op::Get, {"a"}), 1s).value, std::string("two"));
}

void TestRendezvous::getWaitsForAnotherRank() {
    Server server("127.0.0.1", 0, 2, 2000ms);
    Client a("127.0.0.1", server.port(), 2, 0, soon());
    Client b("127.0.0.1", server.port(), 2, 1, soon());
    std::thread later([&] {
        std::this_thread::sleep_for(300ms);
        b.call(req(Op::Set, {"address"}, "10.0.0.2:1234"), 1s);
    });
    QCOMPARE(a.call(req(Op::Get, {"address"}), 5s).value, std::string("10.0.0.2:1234"));
    a.call(req(Op::Wait, {"address"}), 1s);
    later.join();
    // A wait that times out ends the conversation: the caller is told, every later call too.
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, a.call(req(Op::Wait, {"never"}), 300ms));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, a.call(req(Op::NumKeys), 1s));
    QCOMPARE(b.call(req(Op::NumKeys), 1s).number, int64_t(1)); // the store serves on
}

void TestRendezvous::listensOnlyWhereMasterSays() {
    Server server("127.0.0.1", 0, 2, 2000ms);
    QCOMPARE(cltest::listeningOn(server.port()), QStringList{"0100007F"});
    // An address of another machine: one line, nothing listens.
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, Server("192.0.2.1", 0, 2, 2000ms));
    try {
        Server("no-such-host.invalid", 0, 2, 2000ms);
        QFAIL("an unknown host was accepted");
    } catch (const std::runtime_error& e) {
        QVERIFY2(QString(e.what()).startsWith("cannot listen on no-such-host.invalid:0"), e.what());
    }
}

void TestRendezvous::admitsEachRankOnce() {
    Server server("127.0.0.1", 0, 2, 2000ms);
    Client first("127.0.0.1", server.port(), 2, 1, soon());
    const auto refusal = [&](int64_t world, int64_t rank) {
        try {
            Client("127.0.0.1", server.port(), world, rank, soon());
        } catch (const std::runtime_error& e) {
            return QString(e.what());
        }
        return QString();
    };
    QVERIFY(refusal(2, 1).contains("rank 1 has joined already"));
    QVERIFY(refusal(3, 0).contains("every rank needs the same command"));
    QVERIFY(refusal(2, 2).contains("outside this world"));
    // A rank that left may come back (its connection closed).
    { Client zero("127.0.0.1", server.port(), 2, 0, soon()); }
    QTRY_VERIFY(refusal(2, 0).isEmpty());
}

void TestRendezvous::hostilePeersAreDroppedAndCostNothing() {
    Server server("127.0.0.1", 0, 2, 3000ms);
    // Nine bytes announcing 2^30: dropped at once, nothing allocated for them.
    std::string huge = frameOf(1u << 30) + std::string(1, char(Op::Set)) + frameOf(1u << 30);
    const int bomb = cltest::rawPeer(server.port(), huge);
    QVERIFY(bomb >= 0);
    QVERIFY(cltest::closedByPeer(bomb, 2000));
    ::close(bomb);
    // Not a greeting: dropped.
    const int junk = cltest::rawPeer(server.port(), frameOf(3) + "abc");
    QVERIFY(cltest::closedByPeer(junk, 2000));
    ::close(junk);
    // Half a message, held: the ranks are served meanwhile, the peer is dropped after 3 s.
    const int slow = cltest::rawPeer(server.port(), std::string("\x10\x00", 2));
    QVERIFY(slow >= 0);
    QElapsedTimer clock;
    clock.start();
    Client rank("127.0.0.1", server.port(), 2, 0, soon());
    rank.call(req(Op::Set, {"k"}, "v"), 1s);
    QVERIFY2(clock.elapsed() < 2500, "a slow peer held up a rank");
    QVERIFY(cltest::closedByPeer(slow, 6000));
    ::close(slow);
    // Strangers beyond kMaxStrangers are turned away, and a rank still gets in after them.
    std::vector<int> idle;
    for (int i = 0; i < kMaxStrangers + 4; ++i)
        idle.push_back(cltest::rawPeer(server.port(), ""));
    Client other("127.0.0.1", server.port(), 2, 1, Clock::now() + 10s);
    QCOMPARE(other.call(req(Op::Get, {"k"}), 1s).value, std::string("v"));
    for (int fd : idle)
        ::close(fd);
}

void TestRendezvous::budgetsHold() {
    Server server("127.0.0.1", 0, 1, 2000ms);
    {
        Client c("127.0.0.1", server.port(), 1, 0, soon());
        // A value over 1 MiB is no message of ours: the connection ends.
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 c.call(req(Op::Set, {"big"}, std::string(kMaxValue + 1, 'x')), 5s));
    }
    Client c("127.0.0.1", server.port(), 1, 0, soon());
    const std::string mib(kMaxValue, 'x');
    int stored = 0;
    QString why;
    for (; stored < 80; ++stored) {
        try {
            c.call(req(Op::Set, {"k" + std::to_string(stored)}, mib), 5s);
        } catch (const std::runtime_error& e) {
            why = e.what();
            break;
        }
    }
    QCOMPARE(stored, int(kMaxStoredBytes / kMaxValue) - 1); // the keys' bytes count too
    QVERIFY2(why.contains("the store is full"), qPrintable(why));
    QCOMPARE(c.call(req(Op::Delete, {"k0"}), 1s).number, int64_t(1)); // still serving
    // The state's own refusals: a sum that overflows, a request for too many keys.
    StoreState state(1);
    Request add = req(Op::Add, {"n"});
    add.number = INT64_MAX;
    QVERIFY(state.apply(add)->ok);
    add.number = 1;
    QVERIFY(!state.apply(add)->ok);
    std::vector<std::string> many(kMaxKeysPerRequest + 1, "k");
    const std::string body = encode(req(Op::Wait, many)).substr(4);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, decodeRequest(body));
}

void TestRendezvous::framesRoundTrip() {
    Request r = req(Op::CompareSet, {"key"}, "new");
    r.expected = std::string("old\0\xff", 5);
    const std::string bytes = encode(r);
    FrameReader in;
    for (char ch : bytes) // one byte at a time, as a slow network delivers it
        in.feed(&ch, 1);
    const auto body = in.next();
    QVERIFY(body && !in.partial());
    const Request back = decodeRequest(*body);
    QCOMPARE(encode(back), bytes);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, decodeRequest(body->substr(0, 7)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, decodeRequest(*body + "x"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, decodeRequest(std::string(1, char(99))));
    FrameReader bomb;
    const std::string header = frameOf(uint32_t(kMaxFrame) + 1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bomb.feed(header.data(), header.size()));
}

CL_TEST_GUILESS_MAIN(TestRendezvous)
#include "tst_rendezvous.moc"
