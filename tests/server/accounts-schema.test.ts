import { describe, expect, it } from "vitest";
import { firstSignUpIssue, firstSignUpProblem } from "~/accounts/sign-up-schema";
import { signUpCourses } from "~/content/site-content";

const full = {
  username: "ana",
  phone: "1234567890",
  course: "Python",
  gender: "female",
  email: "a@b.co",
  password: "secret12",
  confirmPassword: "secret12",
};

describe("the sign-up schema (shared by the form and the server)", () => {
  it("reports only the first broken rule, in the specified order", () => {
    const cases: [Record<string, unknown>, string | null][] = [
      [{}, "Username is required."],
      [{ username: "  " }, "Username is required."],
      [{ username: "ana" }, "Phone number is required."],
      [{ username: "ana", phone: "" }, "Phone number is required."],
      [{ username: "ana", phone: "123" }, "Invalid phone number."],
      [{ ...full, phone: "12345678901" }, "Invalid phone number."],
      [{ ...full, course: "" }, "Course selection is required."],
      [{ ...full, gender: "" }, "Gender selection is required."],
      [{ ...full, email: "" }, "Email is required."],
      [{ ...full, email: "a b@c.d" }, "Invalid email format."],
      [{ ...full, email: "a@b" }, "Invalid email format."],
      [{ ...full, password: "" }, "Password is required."],
      [{ ...full, confirmPassword: "" }, "Confirm Password is required."],
      [{ ...full, confirmPassword: "x" }, "Passwords do not match!"],
      // An earlier rule wins over a later one.
      [{ ...full, password: "", confirmPassword: "x" }, "Password is required."],
      [{ ...full, course: "", email: "" }, "Course selection is required."],
      // A course the options don't have (an admin removed it, or a crafted request).
      [{ ...full, course: "Astrology" }, "That course is not offered. Please choose one from the list."],
      [{ ...full, course: "x".repeat(5_000) }, "That course is not offered. Please choose one from the list."],
      [full, null],
    ];
    for (const [input, message] of cases)
      expect([input, firstSignUpProblem(input, signUpCourses)]).toEqual([input, message]);
  });

  it("names the field each rule is about, so the form can focus it and mark it invalid", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...full, username: "" }, "username"],
      [{ ...full, username: "a".repeat(500) }, "username"],
      [{ ...full, phone: "123" }, "phone"],
      [{ ...full, course: "" }, "course"],
      [{ ...full, gender: "" }, "gender"],
      [{ ...full, email: "a@b" }, "email"],
      [{ ...full, password: "" }, "password"],
      [{ ...full, confirmPassword: "" }, "confirmPassword"],
      // The mismatch is about the second entry, the one to type again.
      [{ ...full, confirmPassword: "x" }, "confirmPassword"],
    ];
    for (const [input, field] of cases)
      expect([input, firstSignUpIssue(input, signUpCourses)?.field]).toEqual([input, field]);
    expect(firstSignUpIssue(full, signUpCourses)).toBeNull();
    // Not a form at all: a message, and no field to point at.
    expect(firstSignUpIssue("nonsense", signUpCourses)).toEqual({ message: expect.any(String), field: undefined });
  });

  it("accepts each of the 36 courses and both genders", () => {
    expect(signUpCourses).toHaveLength(36);
    for (const course of signUpCourses) expect(firstSignUpProblem({ ...full, course }, signUpCourses)).toBeNull();
    expect(firstSignUpProblem({ ...full, gender: "male" }, signUpCourses)).toBeNull();
  });

  it("checks the course against the options it is given, not a fixed list", () => {
    expect(firstSignUpProblem({ ...full, course: "Rust" }, ["Rust"])).toBeNull();
    expect(firstSignUpProblem(full, ["Rust"])).toBe("That course is not offered. Please choose one from the list.");
  });
});
