#include "serve/http_errors.h"

#include <gtest/gtest.h>

namespace kaizen::serve {
namespace {

TEST(ErrorBodyTest, HasCodeMessageAndFieldPaths) {
  EXPECT_EQ(
      ErrorBody("invalid_event", "refused", {{"scores[0].score", "11 is out of range 1..10"}}),
      R"({"error":{"code":"invalid_event","message":"refused","errors":[{"path":)"
      R"("scores[0].score","message":"11 is out of range 1..10"}]}})"
      "\n");
}

TEST(ErrorBodyTest, EscapesQuotesAndControlCharacters) {
  EXPECT_EQ(ErrorBody("bad_request", "a \"b\"\n"),
            R"({"error":{"code":"bad_request","message":"a \"b\"\n","errors":[]}})"
            "\n");
}

TEST(ErrorCodeForTest, NamesTheStatusesTheServerSends) {
  EXPECT_EQ(ErrorCodeFor(401), "unauthorized");
  EXPECT_EQ(ErrorCodeFor(403), "forbidden");
  EXPECT_EQ(ErrorCodeFor(405), "method_not_allowed");
  EXPECT_EQ(ErrorCodeFor(413), "payload_too_large");
  EXPECT_EQ(ErrorCodeFor(422), "invalid_event");
  EXPECT_EQ(ErrorCodeFor(503), "unavailable");
  EXPECT_EQ(ErrorCodeFor(599), "internal");
}

TEST(HttpStatusForTest, MapsStatusCodesToHttp) {
  EXPECT_EQ(HttpStatusFor(InvalidArgument("x")), 400);
  EXPECT_EQ(HttpStatusFor(NotFound("x")), 404);
  EXPECT_EQ(HttpStatusFor(ResourceExhausted("disk full")), 507);
  EXPECT_EQ(HttpStatusFor(Unavailable("shutting down")), 503);
  EXPECT_EQ(HttpStatusFor(IoError("fsync")), 500);
}

}  // namespace
}  // namespace kaizen::serve
