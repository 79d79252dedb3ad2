#include "signals/github_events.h"

#include <fmt/format.h>
#include <simdjson.h>

#include "ingest/validate.h"
#include "model/json_access.h"
#include "signals/github_event_lines.h"
#include "signals/github_payload.h"

namespace kaizen::signals {
namespace {

using github::Node;
using github::PullRequest;
using github::Reader;

// The agent whose pull request this is, or nullopt for a person's: the author's login, the first
// segment of the head branch (agents name theirs "copilot/...", "claude/...", "codex/..."; the
// rest of a branch name is free text, where "fix-cursor-position" must not count), or a
// Co-authored-by trailer of the body, each against the `git scan` pattern.
std::optional<std::string> PullRequestAgent(const PullRequest& pr, const AgentMatcher& agents) {
  if (agents.Matches(pr.author)) return pr.author;
  const size_t slash = pr.head_ref.find('/');
  if (slash != std::string::npos && slash > 0) {
    const std::string_view prefix = std::string_view(pr.head_ref).substr(0, slash);
    if (agents.Matches(prefix)) return std::string(prefix);
  }
  for (const std::string& co : CoAuthors(pr.body)) {
    if (agents.Matches(co)) return co;
  }
  return std::nullopt;
}

std::string NotAgents(const PullRequest& pr) {
  return fmt::format(
      "pull request {} is {}'s, not an agent's (author, branch {} and "
      "Co-authored-by trailers do not match the agent pattern)",
      GithubWorkId(pr.repo, pr.number), pr.author, model::QuoteForMessage(pr.head_ref));
}

class Mapper {
 public:
  Mapper(const GithubSource& source, const AgentMatcher& agents)
      : source_(source), agents_(agents) {}

  Status Map(const Node& root, GithubMapping* out) {
    out_ = out;
    const std::string_view event = source_.event;
    if (event == kGithubPing) {
      out->ignored.push_back("ping: GitHub checks that the webhook is set up; nothing to store");
      return Status::Ok();
    }
    if (!IsKnownGithubEvent(event)) {
      out->ignored.push_back(fmt::format("event {} is not mapped (kaizen reads {}, {} and {})",
                                         model::QuoteForMessage(event), kGithubPullRequest,
                                         kGithubReview, kGithubReviewComment));
      return Status::Ok();
    }
    if (root.value.is_array()) {
      size_t i = 0;
      for (simdjson::dom::element item : root.value.get_array()) {
        Node n{item, fmt::format("[{}]", i++)};
        if (!item.is_object()) {
          return InvalidArgument(fmt::format("{}: {} is not an object (an array holds {} objects)",
                                             n.path, ingest::ShowValue(item), event));
        }
        KZ_RETURN_IF_ERROR(Bare(n));
      }
      return Status::Ok();
    }
    if (!root.value.is_object()) {
      return InvalidArgument(fmt::format("(payload): {} is neither an object nor an array",
                                         ingest::ShowValue(root.value)));
    }
    return IsEnvelope(root) ? Envelope(root) : Bare(root);
  }

 private:
  bool Has(const Node& n, std::string_view key) const {
    simdjson::dom::element v;
    return n.value.get_object().at_key(key).get(v) == simdjson::SUCCESS;
  }

  // A webhook delivery: `action` beside the object it is about.
  bool IsEnvelope(const Node& n) const { return Has(n, "action"); }

  std::string EnvelopeRepo(Reader& r, const Node& root) {
    if (auto repo = r.Object(root, "repository", false)) {
      return r.String(*repo, "full_name", true).value_or("");
    }
    return std::string(source_.repo);
  }

  Status Envelope(const Node& root) {
    Reader r;
    const std::string action = r.String(root, "action", true).value_or("");
    const std::string repo = EnvelopeRepo(r, root);
    std::optional<Node> pr_node = r.Object(root, "pull_request", true);
    std::optional<PullRequest> pr;
    if (pr_node) pr = github::ReadPullRequest(r, *pr_node, repo, 0);
    if (!r.ok()) return r.status();
    const std::optional<std::string> agent = PullRequestAgent(*pr, agents_);
    const std::string_view event = source_.event;
    if (event == kGithubPullRequest) {
      if (action == "closed") return Closed(*pr, agent, pr_node->Child("closed_at"));
      if (action == "opened" || action == "reopened" || action == "synchronize" ||
          action == "edited" || action == "ready_for_review") {
        return Opened(*pr, agent, action == "opened");
      }
      return Ignore(
          fmt::format("pull_request action {} is not mapped (opened, reopened, "
                      "synchronize, edited, ready_for_review and closed are)",
                      model::QuoteForMessage(action)));
    }
    if (!agent) return Ignore(NotAgents(*pr));
    github::Target target{&*pr, pr->repo, pr->number, pr->head_sha, *agent};
    if (event == kGithubReview) {
      if (action != "submitted") {
        return Ignore(fmt::format("pull_request_review action {} is not mapped (submitted is)",
                                  model::QuoteForMessage(action)));
      }
      std::optional<Node> n = r.Object(root, "review", true);
      if (!r.ok()) return r.status();
      return ReviewOf(*n, target);
    }
    if (action != "created") {
      return Ignore(fmt::format("pull_request_review_comment action {} is not mapped (created is)",
                                model::QuoteForMessage(action)));
    }
    std::optional<Node> n = r.Object(root, "comment", true);
    if (!r.ok()) return r.status();
    return CommentOf(*n, target);
  }

  // `gh api` output: one object, without the envelope.
  Status Bare(const Node& n) {
    const std::string_view event = source_.event;
    Reader r;
    if (event == kGithubPullRequest) {
      if (!Has(n, "head")) {
        return InvalidArgument(fmt::format(
            "{}: neither a webhook delivery (no `action`) nor a pull request (no `head`)", n.path));
      }
      std::optional<PullRequest> pr =
          github::ReadPullRequest(r, n, source_.repo, source_.pr.value_or(0));
      if (!r.ok()) return r.status();
      // A snapshot (`gh api repos/O/R/pulls/N`): the work at its head, and how it ended.
      const std::optional<std::string> agent = PullRequestAgent(*pr, agents_);
      if (!agent) return Ignore(NotAgents(*pr));
      KZ_RETURN_IF_ERROR(Opened(*pr, agent, true));
      if (pr->closed) return Closed(*pr, agent, n.Child("closed_at"));
      return Status::Ok();
    }
    // A review or comment alone names its pull request by URL; --repo and --pr stand in.
    github::Target target;
    if (auto url = r.String(n, "pull_request_url", false)) {
      if (auto parsed = github::ParsePullRequestUrl(*url)) {
        target.repo = parsed->first;
        target.number = parsed->second;
      }
    }
    if (!source_.repo.empty()) target.repo = source_.repo;
    if (source_.pr) target.number = *source_.pr;
    if (!r.ok()) return r.status();
    if (target.repo.empty() || target.number == 0) {
      return InvalidArgument(fmt::format(
          "{}: missing or not .../repos/OWNER/NAME/pulls/N, so the pull request is unknown "
          "(give --repo OWNER/NAME and --pr N)",
          n.Child("pull_request_url")));
    }
    return event == kGithubReview ? ReviewOf(n, target) : CommentOf(n, target);
  }

  Status Opened(const PullRequest& pr, const std::optional<std::string>& agent, bool opened) {
    if (!agent) return Ignore(NotAgents(pr));
    // The version's time: when it was opened, else when GitHub last changed it (a push, an edit).
    std::optional<int64_t> at = opened && pr.created_ms ? pr.created_ms : pr.updated_ms;
    if (!at) at = pr.created_ms;
    if (!at) {
      return InvalidArgument(
          "pull_request.updated_at: missing (required timestamp: when this version was made)");
    }
    out_->events.push_back(github::WorkEvent(pr, *agent, *at));
    return Status::Ok();
  }

  Status Closed(const PullRequest& pr, const std::optional<std::string>& agent,
                const std::string& closed_path) {
    if (!agent) return Ignore(NotAgents(pr));
    if (!pr.closed_ms) {
      return InvalidArgument(closed_path +
                             ": missing (required timestamp of a closed pull request)");
    }
    out_->events.push_back(github::MergeOutcomeEvent(pr, *agent));
    return Status::Ok();
  }

  Status ReviewOf(const Node& n, github::Target target) {
    Reader r;
    std::optional<github::Review> review = github::ReadReview(r, n);
    if (!r.ok()) return r.status();
    if (review->bot) {
      return Ignore(fmt::format("review {} is by {}, a GitHub App, not a person", review->id,
                                review->reviewer));
    }
    std::string_view decision;
    if (review->state == "approved") {
      decision = "approved";
    } else if (review->state == "changes_requested") {
      // GitHub's "request changes" sends the same pull request back for more work; `rejected`
      // would say it should be dropped, which closing it unmerged says (merge_outcome closed).
      decision = "needs-work";
    } else if (review->state == "commented") {
      if (review->body.empty()) {
        return Ignore(
            fmt::format("review {} comments without text (its line comments arrive as "
                        "pull_request_review_comment events)",
                        review->id));
      }
    } else {
      return Ignore(
          fmt::format("review {} is {} (approved, changes_requested and commented are "
                      "mapped)",
                      review->id, model::QuoteForMessage(review->state)));
    }
    if (!review->commit_id.empty()) target.version = review->commit_id;
    if (target.version.empty()) {
      return InvalidArgument(n.Child("commit_id") +
                             ": missing (required string: the head sha the review was made on)");
    }
    out_->events.push_back(github::ReviewFeedbackEvent(*review, target, decision));
    return Status::Ok();
  }

  Status CommentOf(const Node& n, github::Target target) {
    Reader r;
    std::optional<github::ReviewComment> comment = github::ReadReviewComment(r, n);
    if (!r.ok()) return r.status();
    if (comment->bot) {
      return Ignore(fmt::format("comment {} is by {}, a GitHub App, not a person", comment->id,
                                comment->reviewer));
    }
    if (comment->body.empty()) return Ignore(fmt::format("comment {} has no text", comment->id));
    if (!comment->commit_id.empty()) target.version = comment->commit_id;
    if (target.version.empty()) {
      return InvalidArgument(n.Child("commit_id") +
                             ": missing (required string: the head sha the comment was made on)");
    }
    out_->events.push_back(github::CommentFeedbackEvent(*comment, target));
    return Status::Ok();
  }

  Status Ignore(std::string why) {
    out_->ignored.push_back(std::move(why));
    return Status::Ok();
  }

  const GithubSource& source_;
  const AgentMatcher& agents_;
  GithubMapping* out_ = nullptr;
};

}  // namespace

bool IsKnownGithubEvent(std::string_view event) {
  return event == kGithubPullRequest || event == kGithubReview || event == kGithubReviewComment ||
         event == kGithubPing;
}

std::string GithubWorkId(std::string_view repo, uint64_t number) {
  return fmt::format("github:{}#{}", repo, number);
}

Result<GithubMapping> MapGithubPayload(std::string_view payload, const GithubSource& source,
                                       const AgentMatcher& agents) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  const simdjson::padded_string padded(payload);
  if (auto err = parser.parse(padded).get(root); err) {
    return InvalidArgument("(payload): " + ingest::DescribeParseError(err, payload));
  }
  GithubMapping out;
  Mapper mapper(source, agents);
  KZ_RETURN_IF_ERROR(mapper.Map(Node{root, "(payload)"}, &out));
  return out;
}

}  // namespace kaizen::signals
