// A call with a bearer token that is tried once more with a new token after
// an auth-required failure (a 401: the cached token was revoked or expired
// early). Header-only; any thread.
#pragma once

#include "engine/model/google/access_tokens.h"

namespace lathe::engine::google {

template <class T, class Call>
Result<T> withFreshToken(AccessTokenSource& tokens, const Call& call, const CancelToken& cancel) {
  for (int attempt = 0;; ++attempt) {
    auto token = tokens.token(cancel);
    if (!token) return token.error();
    Result<T> result = call(*token);
    if (result || result.error().code != Errc::auth_required || attempt > 0) return result;
    tokens.invalidate();
  }
}

}  // namespace lathe::engine::google
