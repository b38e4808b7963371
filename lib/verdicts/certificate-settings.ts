/**
 * The settings that turn a run's report into a certificate (lib/verdicts/certificate.ts): which earlier reports
 * count, how old they may be, what the team leaves out of scope. `certify --evidence/--max-age/--out-of-scope`
 * set them; a job that runs Playwright itself (the example workflow's merge) sets the variables.
 */
import { existsSync } from 'node:fs';
import type { SettingsOfPart } from '../docs/setting-docs.ts';
import { findRule } from '../rules.ts';
import { normaliseBaseUrl } from '../target.ts';
import { DEFAULT_MAX_AGE } from './certificate.ts';
import { isKnownPart, knownPartNames } from './evidence.ts';
import { EvidenceInputError, parseMaxAge } from './evidence-files.ts';

export interface CertificateSettings {
  /** Undefined when nothing asks for a certificate: the run's verdict is its own. */
  certificate?: { evidence: string[]; maxAge: string; maxAgeMs: number; outOfScope: string[]; stagingUrl?: string };
  label: string;
  serviceVersion?: string;
}

/** Paths are given one per line or comma-separated (a GitHub Actions input holds several lines). */
export function listOf(text: string | undefined): string[] {
  return (text ?? '').split(/[\n,]/).map((item) => item.trim()).filter(Boolean);
}

/**
 * Each scope item is a rule ID or RULE-ID:part; a rule the catalogue does not have, or a part no report can
 * name, is refused: a typo (PLAN-FREE:days) would leave out nothing and say nothing.
 */
function parseScope(items: readonly string[], source: string): string[] {
  return items.flatMap((item) => item.split(/\s+/)).filter(Boolean).map((item) => {
    const colon = item.indexOf(':');
    const [rule, part] = colon === -1 ? [item, undefined] : [item.slice(0, colon), item.slice(colon + 1)];
    if (!rule || !findRule(rule)) {
      throw new EvidenceInputError(`${source}: "${item}" is not a rule ID or a part of one (e.g. PLAN-BUSINESS or PLAN-BUSINESS:day; the IDs are in docs/reference/rules.md)`);
    }
    if (part !== undefined && !isKnownPart(part)) {
      throw new EvidenceInputError(`${source}: "${item}" names no part a report has; a part is one of ${knownPartNames().join(', ')} or load:<check> (e.g. PLAN-BUSINESS:day)`);
    }
    return item;
  });
}

export function certificateSettingsFromEnv(env: Readonly<Record<string, string | undefined>>): CertificateSettings {
  const evidence = listOf(env.PETSTORE_EVIDENCE);
  const absent = evidence.find((file) => !existsSync(file));
  if (absent) throw new EvidenceInputError(`PETSTORE_EVIDENCE ${absent}: no such file or folder`);
  const maxAgeText = env.PETSTORE_MAX_AGE?.trim();
  const outOfScope = parseScope(listOf(env.PETSTORE_OUT_OF_SCOPE), 'PETSTORE_OUT_OF_SCOPE');
  const stagingText = env.PETSTORE_STAGING_BASE_URL?.trim();
  let stagingUrl: string | undefined;
  try {
    stagingUrl = stagingText ? normaliseBaseUrl(stagingText, 'PETSTORE_STAGING_BASE_URL') : undefined;
  } catch (error) {
    throw new EvidenceInputError((error as Error).message);
  }
  const maxAge = maxAgeText || DEFAULT_MAX_AGE;
  const maxAgeMs = parseMaxAge(maxAge, 'PETSTORE_MAX_AGE');
  const label = env.PETSTORE_RUN_LABEL?.trim() || 'run';
  const serviceVersion = env.PETSTORE_SERVICE_VERSION?.trim() || undefined;
  const asked = evidence.length > 0 || maxAgeText || outOfScope.length > 0 || stagingUrl;
  return {
    label,
    ...(serviceVersion ? { serviceVersion } : {}),
    ...(asked ? { certificate: { evidence, maxAge, maxAgeMs, outOfScope, ...(stagingUrl ? { stagingUrl } : {}) } } : {}),
  };
}

/** What docs/reference/settings.md says of them. */
export const CERTIFICATE_SETTINGS: SettingsOfPart = {
  part: 'The certificate (`certify --evidence`, `--max-age`, `--out-of-scope`; the merge of a sharded run)',
  read: certificateSettingsFromEnv,
  settings: [
    {
      name: 'PETSTORE_EVIDENCE',
      default: 'unset: the verdict is the run\'s own',
      check: 'reports (conformance.json, a load summary.json) or folders holding them, one per line or comma-separated; a file that is not a report is refused',
      meaning: 'Earlier reports of the same target to certify with (`certify --evidence`): a part of a rule counts as checked when some report within PETSTORE_MAX_AGE checked it.',
      refused: '/nonexistent/conformance.json',
    },
    {
      name: 'PETSTORE_MAX_AGE',
      default: DEFAULT_MAX_AGE,
      check: 'a number and a unit: m, h, d or w (90m, 36h, 7d, 2w)',
      meaning: 'How old a report\'s check of a part may be and still count (`certify --max-age`).',
      refused: 'a week',
    },
    {
      name: 'PETSTORE_OUT_OF_SCOPE',
      default: 'unset: everything is in scope',
      check: 'rule IDs or parts of rules (PLAN-BUSINESS:day), space- or comma-separated; an unknown rule ID is refused',
      meaning: 'What the team leaves out (`certify --out-of-scope`): reported as not in scope, never as passed; when all else holds the verdict is "Conforming within that scope" (exit 0).',
      refused: 'PLAN-NOPE:day',
    },
    {
      name: 'PETSTORE_STAGING_BASE_URL',
      default: 'unset: only reports of the target itself count',
      check: 'an http:// or https:// URL',
      meaning: "This target's staging (rule VER-2: staging has production's shape): its reports cover the parts this target's own reports did not check, e.g. the creating tests a read-only production run leaves out.",
      refused: 'staging',
    },
    {
      name: 'PETSTORE_RUN_LABEL',
      default: 'run',
      check: 'a few words',
      meaning: 'What a certificate calls this run when it counts it later: "nightly run" gives "PLAN-BUSINESS: day checked by the nightly run of 2026-11-20, 4 days old".',
    },
    {
      name: 'PETSTORE_SERVICE_VERSION',
      default: 'unset: not recorded',
      check: 'any text',
      meaning: "The deployment's own version (a commit, a release), written into the report's evidence beside the base URL. Informational: a redeployed staging is still staging.",
    },
  ],
};
