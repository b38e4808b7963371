/** How often a rule was broken in a run, with one example: the load's findings, shared by the runner and the refusal check. */
export interface Finding {
  count: number;
  example: string;
}
