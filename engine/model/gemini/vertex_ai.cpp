// Vertex AI endpoints and credentials.
#include "engine/model/gemini/vertex_ai.h"

namespace lathe::engine {

VertexSettings vertexFromEnvironment(const std::function<std::optional<std::string>(const char*)>& env) {
  VertexSettings out;
  out.project = env("GOOGLE_CLOUD_PROJECT").value_or("");
  out.location = env("GOOGLE_CLOUD_LOCATION").value_or("");
  out.baseUrl = env("GOOGLE_VERTEX_BASE_URL").value_or("");
  out.apiKey = env("GOOGLE_API_KEY").value_or("");
  out.adcPath = google::findAdcFile(env);
  return out;
}

Result<VertexEndpoint> vertexEndpoint(const VertexSettings& settings) {
  VertexEndpoint out;
  if (settings.project.empty()) {
    if (settings.apiKey.empty()) {
      return makeError(Errc::auth_required,
                       "Vertex AI needs GOOGLE_CLOUD_PROJECT (with Application Default Credentials) or, for express "
                       "mode, GOOGLE_API_KEY.");
    }
    out.baseUrl = settings.baseUrl.empty() ? "https://aiplatform.googleapis.com" : settings.baseUrl;
    out.modelsPath = "/v1/publishers/google/models/";
    out.apiKey = settings.apiKey;
    out.credential = "the Vertex AI express-mode key in GOOGLE_API_KEY";
    out.fix = "check the key in the Google Cloud console (APIs & Services > Credentials)";
    return out;
  }
  const std::string location = settings.location.empty() ? "us-central1" : settings.location;
  out.baseUrl = !settings.baseUrl.empty() ? settings.baseUrl
                : location == "global"    ? "https://aiplatform.googleapis.com"
                                          : "https://" + location + "-aiplatform.googleapis.com";
  out.modelsPath = "/v1/projects/" + settings.project + "/locations/" + location + "/publishers/google/models/";
  if (settings.adcPath.empty()) {
    return makeError(Errc::auth_required,
                     "Vertex AI (project " + settings.project + ") needs Application Default Credentials: set "
                     "GOOGLE_APPLICATION_CREDENTIALS to a service-account key file, or run `gcloud auth "
                     "application-default login`.");
  }
  auto file = google::readAdcFile(settings.adcPath);
  if (!file) return file.error();
  out.tokens = std::make_shared<google::AccessTokenSource>(*file, google::AccessTokenSource::Options{});
  out.credential = file->type == google::AdcFile::Type::serviceAccount
                       ? "the service account " + file->clientEmail + " (" + file->path + ")"
                       : "the gcloud login in " + file->path;
  out.fix = "check that it may use Vertex AI in project " + settings.project +
            " (role roles/aiplatform.user) and that the Vertex AI API is enabled there";
  return out;
}

}  // namespace lathe::engine
