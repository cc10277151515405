export { findSecrets, credentialSecrets, scrubSecrets, type SecretFinding } from './find-secrets';
export { findSecretsInFiles, type FileSecretFinding } from './find-secrets-in-files';
export {
  secretForms,
  secretNeedles,
  caseFoldable,
  base64Core,
  type SecretForm,
  type SecretNeedles,
} from './secret-forms';
export { decodedLayers, decodeOnce, type DecodedLayer } from './decoded-layers';
export { compileMatcher, matchSecrets, type FormMatch, type SecretMatcher } from './secret-matcher';
