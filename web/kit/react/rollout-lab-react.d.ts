// Types of rollout-lab-react.js, and of the <rollout-lab> tag in TSX (React 19's JSX namespace).
import type { CSSProperties, JSX, Key, ReactNode, Ref } from "react";
import type { RolloutLabAttributes, RolloutLabElement, RolloutStepEvent } from "./rollout-lab.js";

/** The props of `RolloutLab`: the element's attributes, `base`, `onRolloutStep` and fallback children. */
export interface RolloutLabProps extends Omit<RolloutLabAttributes, "controls" | "buttons" | "step" | "heading-level" | "style"> {
  /** Where Rollout Lab's dist/ is served (default "/rollout-lab/"); with Docusaurus, `useBaseUrl("/rollout-lab/")`. */
  base?: string;
  /** The controls, as a list or a comma-separated string (written as the `buttons` attribute). */
  controls?: string | string[];
  buttons?: string | string[];
  step?: string | number;
  "heading-level"?: string | number;
  className?: string;
  /** Merged over the element's own `display: block; container-type: inline-size`. */
  style?: CSSProperties;
  /** After every change the lab draws. */
  onRolloutStep?: (event: RolloutStepEvent) => void;
  /** Shown until the lab is drawn (and without JavaScript). */
  children?: ReactNode;
}

/** `<rollout-lab>` as a React component. */
export declare function RolloutLab(props: RolloutLabProps): JSX.Element;
export default RolloutLab;

declare module "react" {
  namespace JSX {
    interface IntrinsicElements {
      "rollout-lab": RolloutLabAttributes & { ref?: Ref<RolloutLabElement>; key?: Key; children?: ReactNode };
    }
  }
}
