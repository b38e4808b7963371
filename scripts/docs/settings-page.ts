/** docs/reference/settings.md: every environment variable, from the settings each part declares where it reads them. */
import type { SettingsOfPart } from '../../lib/docs/setting-docs.ts';
import { LOAD_SETTINGS } from '../../harness/load/target.ts';
import { RECORD_REPLAY_SETTINGS } from '../../harness/replay/target.ts';
import { SERVER_SETTINGS } from '../../reference-server/config.ts';
import { SUITE_SETTINGS } from '../../specs/support/setting-docs.ts';
import { CERTIFICATE_SETTINGS } from '../../lib/verdicts/certificate-settings.ts';
import { CLIENT_SETTINGS } from '../../harness/client-rules/run-client.ts';
import { KEYS_FILE_SETTINGS } from '../../lib/cli/keys-file.ts';
import { generatedNotice, table } from './markdown.ts';

export const SETTINGS_OF_PARTS: readonly SettingsOfPart[] = [SUITE_SETTINGS, CERTIFICATE_SETTINGS, KEYS_FILE_SETTINGS, SERVER_SETTINGS, LOAD_SETTINGS, RECORD_REPLAY_SETTINGS, CLIENT_SETTINGS];

export function settingsPage(): string {
  const parts = SETTINGS_OF_PARTS.map((part) =>
    [`## ${part.part}`, '', table(['Variable', 'Default', 'Check', 'Meaning'], part.settings.map((s) => [`\`${s.name}\``, s.default, s.check, s.meaning]))].join('\n'),
  );
  return `${generatedNotice('the settings each part declares (SUITE_SETTINGS, CERTIFICATE_SETTINGS, SERVER_SETTINGS, LOAD_SETTINGS, RECORD_REPLAY_SETTINGS)')}

# Settings and environment variables

Everything is configured through the environment, with the same names in every part. A blank variable means
its default. A value that fails its check stops the part before it sends anything, with one line naming the
variable and what it should hold (exit code 2). No key is ever written down: reports, logs, recordings and curl
commands name the variable that holds it (\`$PETSTORE_API_KEY_FREE\`).

${parts.join('\n\n')}
`;
}
