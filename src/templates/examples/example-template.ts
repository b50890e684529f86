/** A starter template: its name, sources, and variables that show it whole (docs/templates.md, Starter templates). */
export interface ExampleTemplate {
  name: string;
  subject: string;
  html: string;
  text: string;
  /** Sample variables: every variable the template uses, so a preview shows all of it. */
  sample: Record<string, unknown>;
}
