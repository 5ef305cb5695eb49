/* The portable lathe binary links libgit2 statically. Debian builds libgit2
 * with GSSAPI, for Kerberos (HTTP Negotiate) sign-in to remote repositories,
 * and ships no static GSSAPI library. Lathe uses libgit2 only on its own local
 * shadow repositories, never a remote, so none of these ever runs; they answer
 * as GSSAPI does when it has no mechanism at all. */
#include <gssapi/gssapi.h>
#include <stddef.h>

static gss_OID_desc no_name_type = {0, NULL};
gss_OID GSS_C_NT_HOSTBASED_SERVICE = &no_name_type;

OM_uint32 KRB5_CALLCONV gss_indicate_mechs(OM_uint32 *minor, gss_OID_set *mechs) {
  *minor = 0;
  *mechs = GSS_C_NO_OID_SET;
  return GSS_S_UNAVAILABLE;
}

OM_uint32 KRB5_CALLCONV gss_import_name(OM_uint32 *minor, gss_buffer_t name, gss_OID type, gss_name_t *out) {
  (void)name;
  (void)type;
  *minor = 0;
  *out = GSS_C_NO_NAME;
  return GSS_S_UNAVAILABLE;
}

OM_uint32 KRB5_CALLCONV gss_init_sec_context(OM_uint32 *minor, gss_cred_id_t cred, gss_ctx_id_t *context,
                                             gss_name_t target, gss_OID mech, OM_uint32 flags, OM_uint32 time,
                                             gss_channel_bindings_t bindings, gss_buffer_t input, gss_OID *actual,
                                             gss_buffer_t output, OM_uint32 *returned, OM_uint32 *lifetime) {
  (void)cred, (void)context, (void)target, (void)mech, (void)flags, (void)time, (void)bindings, (void)input;
  (void)actual, (void)returned, (void)lifetime;
  *minor = 0;
  if (output) {
    output->length = 0;
    output->value = NULL;
  }
  return GSS_S_UNAVAILABLE;
}

OM_uint32 KRB5_CALLCONV gss_display_status(OM_uint32 *minor, OM_uint32 status, int type, gss_OID mech,
                                           OM_uint32 *more, gss_buffer_t text) {
  static char message[] = "GSSAPI is not available in this build of Lathe";
  (void)status, (void)type, (void)mech;
  *minor = 0;
  *more = 0;
  text->length = sizeof message - 1;
  text->value = message;
  return GSS_S_COMPLETE;
}

OM_uint32 KRB5_CALLCONV gss_release_buffer(OM_uint32 *minor, gss_buffer_t buffer) {
  *minor = 0;
  if (buffer) {
    buffer->length = 0;
    buffer->value = NULL;  /* only display_status's static text is ever handed out */
  }
  return GSS_S_COMPLETE;
}

OM_uint32 KRB5_CALLCONV gss_delete_sec_context(OM_uint32 *minor, gss_ctx_id_t *context, gss_buffer_t token) {
  (void)token;
  *minor = 0;
  if (context) *context = GSS_C_NO_CONTEXT;
  return GSS_S_COMPLETE;
}

OM_uint32 KRB5_CALLCONV gss_release_name(OM_uint32 *minor, gss_name_t *name) {
  *minor = 0;
  if (name) *name = GSS_C_NO_NAME;
  return GSS_S_COMPLETE;
}

OM_uint32 KRB5_CALLCONV gss_release_oid_set(OM_uint32 *minor, gss_OID_set *set) {
  *minor = 0;
  if (set) *set = GSS_C_NO_OID_SET;
  return GSS_S_COMPLETE;
}
