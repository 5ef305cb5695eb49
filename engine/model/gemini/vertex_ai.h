// Gemini on Vertex AI, configured as Gemini CLI and the Google Gen AI SDK read
// it: GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION (default us-central1)
// with Application Default Credentials (a service-account key file or
// gcloud's login), or express mode with GOOGLE_API_KEY alone;
// GOOGLE_VERTEX_BASE_URL replaces the regional endpoint.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "engine/model/google/access_tokens.h"
#include "protocol/base/result.h"

namespace lathe::engine {

struct VertexSettings {
  std::string project;   // GOOGLE_CLOUD_PROJECT
  std::string location;  // GOOGLE_CLOUD_LOCATION; empty: us-central1
  std::string baseUrl;   // GOOGLE_VERTEX_BASE_URL; empty: the location's endpoint
  std::string apiKey;    // GOOGLE_API_KEY: express mode when no project is set
  std::string adcPath;   // the ADC file found (GOOGLE_APPLICATION_CREDENTIALS, gcloud's); empty: none
};

VertexSettings vertexFromEnvironment(const std::function<std::optional<std::string>(const char*)>& env);

// Where and how requests go.
struct VertexEndpoint {
  std::string baseUrl;
  std::string modelsPath;  // ".../publishers/google/models/"
  std::string apiKey;      // express mode
  std::shared_ptr<google::AccessTokenSource> tokens;  // ADC
  std::string credential;  // what authenticates, for messages
  std::string fix;         // what to do when it is refused
};

// An auth-required error saying what is missing when Vertex AI cannot be used.
Result<VertexEndpoint> vertexEndpoint(const VertexSettings& settings);

}  // namespace lathe::engine
