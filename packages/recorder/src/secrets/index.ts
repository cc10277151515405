export { findSecrets, credentialSecrets, scrubSecrets, type SecretFinding } from './find-secrets';
export { findSecretsInFiles, type FileSecretFinding } from './find-secrets-in-files';
export { secretForms, base64Core, type SecretForm } from './secret-forms';
