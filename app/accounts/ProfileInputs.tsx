import { controlClass, CourseOptions, Field, labelClass, type useFormProblem } from "~/ui/form";
import { profileField, type ProfileField } from "./sign-up-schema";

type Describe = ReturnType<typeof useFormProblem>["describe"];

/** The ids of a profile field's controls in a form whose inputs are `<prefix>-<field>` (a choice's radios each). */
export function profileControls(prefix: string, name: ProfileField): string[] {
  const { input } = profileField(name);
  const id = `${prefix}-${name}`;
  return input.kind === "choice" ? input.options.map((option) => `${id}-${option.value}`) : [id];
}

/**
 * The inputs of these profile fields, as `profileFields` declares them: the sign-up form shows
 * every field, the dashboard's details the ones a learner changes there.
 */
export function ProfileInputs<Name extends ProfileField>({
  prefix,
  names,
  values,
  onChange,
  courseOptions,
  describe,
  autoFocus = false,
}: {
  prefix: string;
  names: readonly Name[];
  values: Record<Name, string>;
  onChange(name: Name, value: string): void;
  courseOptions: readonly string[];
  describe: Describe;
  /** Focus the first input (the sign-up form, as it opens). */
  autoFocus?: boolean;
}) {
  return names.map((name, index) => {
    const { input } = profileField(name);
    const id = `${prefix}-${name}`;
    const change = (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
      onChange(name, event.target.value);
    if (input.kind === "text") {
      return (
        <Field
          key={name}
          id={id}
          label={input.label}
          value={values[name]}
          onChange={change}
          autoComplete={input.autoComplete}
          inputMode={input.inputMode}
          maxLength={input.maxLength}
          autoFocus={autoFocus && index === 0}
          {...describe(id)}
        />
      );
    }
    if (input.kind === "course") {
      return (
        <div key={name}>
          <label htmlFor={id} className={labelClass}>
            {input.label}
          </label>
          <select id={id} name={name} value={values[name]} onChange={change} className={controlClass} {...describe(id)}>
            <CourseOptions options={courseOptions} />
          </select>
        </div>
      );
    }
    return (
      <fieldset key={name}>
        <legend className={labelClass}>{input.label}</legend>
        <div className="mt-1 flex gap-6">
          {input.options.map((option) => (
            <label key={option.value} className="inline-flex items-center gap-2 text-slate-800">
              <input
                id={`${id}-${option.value}`}
                type="radio"
                name={name}
                value={option.value}
                checked={values[name] === option.value}
                onChange={change}
                className="h-4 w-4 accent-blue-800 aria-invalid:outline-2 aria-invalid:outline-offset-2 aria-invalid:outline-red-700"
                {...describe(`${id}-${option.value}`)}
              />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
    );
  });
}
