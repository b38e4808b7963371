/**
 * The certificate in the HTML report: per rule, its verdict on all the evidence and where each part's came from
 * and how old it is, then every report given as evidence, counted or not and why.
 */
import { html, type Html } from '../../lib/html.ts';
import type { CertificateRule, CertifiedReport } from '../../lib/verdicts/certificate.ts';

const CLASS: Record<string, string> = { pass: 'pass', fail: 'fail', warn: 'warn', 'partly-checked': 'partial', observed: 'info', skipped: 'muted', 'not-run': 'muted', 'not-in-scope': 'muted' };

export function certificateSection(report: CertifiedReport): Html | string {
  const certificate = report.certificate;
  if (!certificate) return '';
  const rules = certificate.rules.filter((rule) => rule.parts.length > 0 || rule.verdict === 'not-in-scope');
  // What a reviewer needs first: the rules whose evidence is not this run's alone; the others fold away.
  const notOwnAlone = (rule: CertificateRule): boolean => rule.verdict === 'not-in-scope' || rule.parts.some((part) => part.state !== 'held' || part.by?.label !== 'this run');
  const first = rules.filter(notOwnAlone);
  const ownAlone = rules.filter((rule) => !notOwnAlone(rule));
  return html`<section class="certificate" id="certificate">
<h2>Certificate: this run with earlier reports</h2>
<p class="muted">A part of a rule counts as checked when some report within ${certificate.maxAge} checked it; a failure within ${certificate.maxAge} fails unless a later report checked the same part and it held. Reports of another target never count${certificate.stagingUrl ? html`, except this target's staging <code>${certificate.stagingUrl}</code> (VER-2: same shape), for what this target's own reports did not check` : ''}.${certificate.outOfScope.length > 0 ? html` Declared out of scope, never counted as passed: <code>${certificate.outOfScope.join(' ')}</code>.` : ''} The run's own verdict: ${certificate.ownVerdict.headline}</p>
<table class="rules certificate-rules">
<thead><tr><th>Rule</th><th>Verdict</th><th>Where its evidence came from</th></tr></thead>
<tbody>${first.map(ruleRow)}</tbody>
</table>
${ownAlone.length > 0 ? html`<details><summary>${ownAlone.length} more rule${ownAlone.length === 1 ? '' : 's'} held on this run's own evidence</summary><table class="rules certificate-rules"><tbody>${ownAlone.map(ruleRow)}</tbody></table></details>` : ''}
${certificate.reports.length > 0
  ? html`<h3>Reports given as evidence</h3><ul class="evidence-reports">${certificate.reports.map(
      (considered) => html`<li><code>${considered.file}</code>: the ${considered.label} of <code>${considered.baseUrl}</code>, ${considered.startedAt.slice(0, 16).replace('T', ' ')} UTC: ${considered.counted ? 'counted' : html`<strong>not counted</strong> (${considered.why ?? ''})`}</li>`,
    )}</ul>`
  : html`<p class="muted">No earlier report was given: the certificate is this run's alone.</p>`}
</section>`;
}

function ruleRow(rule: CertificateRule): Html {
  return html`<tr id="certificate-${rule.id}"><td><a href="#rule-${rule.id}"><code>${rule.id}</code></a> <span class="muted">${rule.level}</span></td><td><span class="badge ${CLASS[rule.verdict] ?? 'muted'}">${rule.verdict}</span></td><td>${rule.line.slice(rule.id.length + 2)}</td></tr>`;
}
