// The verbs that register themselves (cli/verb.h), one function per verb, each in its own file.
#pragma once

#include "cli/verb.h"

namespace kaizen::cli {

// (one declaration per verb)
Verb AddRenderVerb(CLI::App& app, Common& c);
Verb AddHintsVerb(CLI::App& app, Common& c);
Verb AddRulesVerb(CLI::App& app, Common& c);
Verb AddThemesVerb(CLI::App& app, Common& c);
Verb AddCheckVerb(CLI::App& app, Common& c);
Verb AddValidateVerb(CLI::App& app, Common& c);
Verb AddCorrectionsVerb(CLI::App& app, Common& c);
Verb AddCompactVerb(CLI::App& app, Common& c);
Verb AddForgetVerb(CLI::App& app, Common& c);
Verb AddPiiVerb(CLI::App& app, Common& c);
Verb AddContextVerb(CLI::App& app, Common& c);
Verb AddServeVerb(CLI::App& app, Common& c);
Verb AddLoopVerb(CLI::App& app, Common& c);
Verb AddRewardVerb(CLI::App& app, Common& c);
Verb AddRateVerb(CLI::App& app, Common& c);
Verb AddAskVerb(CLI::App& app, Common& c);
Verb AddAnswerVerb(CLI::App& app, Common& c);
Verb AddReviewVerb(CLI::App& app, Common& c);
Verb AddMcpVerb(CLI::App& app, Common& c);
Verb AddGithubVerb(CLI::App& app, Common& c);
Verb AddDashboardVerb(CLI::App& app, Common& c);
Verb AddHookVerb(CLI::App& app, Common& c);
Verb AddInitVerb(CLI::App& app, Common& c);
Verb AddDoctorVerb(CLI::App& app, Common& c);
Verb AddMigrateVerb(CLI::App& app, Common& c);
Verb AddTokenVerb(CLI::App& app, Common& c);

}  // namespace kaizen::cli
