import type { z } from "zod";
import { describe, expect, it } from "vitest";
import { firstProfileProblem, firstSignUpProblem } from "~/accounts/sign-up-schema";
import { addCourseSchema, addOptionSchema } from "~/catalogue/catalogue-rules";
import { signUpCourses } from "~/content/site-content";
import { reissueCertificateSchema } from "~/documents/correction-fields";
import { certificateSchema, issueOfferLetterSchema } from "~/documents/document-fields";
import { settingsSchema } from "~/documents/settings-rules";
import { enquirySchema } from "~/enquiries/enquiry-fields";
import {
  addApplicationSchema,
  createBatchSchema,
  createTermsSchema,
  paymentSchema,
} from "~/placement/placement-fields";
import { pageSchema, partnerSchema, testimonialSchema } from "~/site/proof-rules";
import { singleLineMessage } from "~/core/text";

const breaks = ["Two\nlines", "Two\r\nlines", "Carriage\rreturn", "Tab\tbed", "Trailing\n"];

/** The messages a schema answers `input` with (none when it passes). */
const messages = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

const course = {
  title: "Java",
  duration: "6 Months",
  price: "15500",
  details: "Core Java,\nSpring Boot.",
  paymentUrl: "",
};
const terms = {
  name: "Standard",
  threshold: "300000",
  feeKind: "fixed",
  feeAmount: "50000",
  instalments: "6",
  windowMonths: "12",
  gst: "18",
  pauseRule: "Instalments pause\nwhile you look for work.",
};
const batch = {
  name: "Python – Oct 2026",
  courseSlug: "python",
  startDate: "2026-10-01",
  endDate: "2027-03-31",
  payment: "upfront",
};
const certificate = { title: "Full Stack", description: "Two lines\nof description.", issuedOn: "", validUntil: "" };
const offerLetter = {
  learnerId: "l1",
  title: "Developer",
  issuedOn: "",
  startDate: "2026-12-01",
  location: "Pune",
  payKind: "stipend",
  payAmount: "25000",
  payPeriod: "month",
  replyBy: "2026-11-30",
  body: "Dear learner,\n\nWelcome.",
};
const enquiry = {
  name: "Asha",
  phone: "9876543210",
  email: "",
  course: "Python",
  message: "Call me\nafter 5.",
  callbackTime: "morning",
};

/** Each single-line field, and a valid form to put a value in it. */
const singleLine: [string, z.ZodType, Record<string, unknown>, string][] = [
  ["a catalogue course's title", addCourseSchema, course, "title"],
  ["a catalogue course's duration", addCourseSchema, course, "duration"],
  ["a sign-up course option", addOptionSchema, { label: "Java" }, "label"],
  ["a testimonial's name", testimonialSchema, { name: "Asha", course: "Java", quote: "Good\nclasses." }, "name"],
  ["a testimonial's course", testimonialSchema, { name: "Asha", course: "Java", quote: "Good." }, "course"],
  ["a partner's name", partnerSchema, { name: "Acme" }, "name"],
  ["the signatory's name", settingsSchema, { signatoryName: "Meera", signatoryTitle: "Director" }, "signatoryName"],
  ["the signatory's title", settingsSchema, { signatoryName: "Meera", signatoryTitle: "Director" }, "signatoryTitle"],
  ["fee terms' name", createTermsSchema, terms, "name"],
  ["a batch's name", createBatchSchema, batch, "name"],
  ["a batch's schedule", createBatchSchema, batch, "schedule"],
  ["an application's company", addApplicationSchema, { company: "Acme", role: "Dev", source: "own" }, "company"],
  ["an application's role", addApplicationSchema, { company: "Acme", role: "Dev", source: "own" }, "role"],
  [
    "a payment's reference",
    paymentSchema,
    { instalmentId: "i1", amount: "100", paidOn: "2026-11-01", reference: "UTR 1" },
    "reference",
  ],
  ["a certificate's title", certificateSchema, certificate, "title"],
  ["an offer letter's position", issueOfferLetterSchema, offerLetter, "title"],
  ["an offer letter's location", issueOfferLetterSchema, offerLetter, "location"],
  [
    "a reissued document's holder",
    reissueCertificateSchema,
    { learnerId: "l1", documentId: "d1", holderName: "Asha", ...certificate },
    "holderName",
  ],
];

describe("single-line fields", () => {
  it("take each form as it is (text areas keep their line breaks)", () => {
    for (const [what, schema, valid] of singleLine) expect([what, messages(schema, valid)]).toEqual([what, []]);
    expect(messages(enquirySchema(["Python"]), enquiry)).toEqual([]);
    expect(messages(pageSchema, { slug: "about", body: "First paragraph.\r\n\r\nSecond,\twith a tab." })).toEqual([]);
  });

  it("refuse a line feed, a carriage return or a tab with a message saying so", () => {
    for (const [what, schema, valid, field] of singleLine) {
      for (const value of breaks) {
        expect([what, value, messages(schema, { ...valid, [field]: value })]).toEqual([
          what,
          value,
          [singleLineMessage],
        ]);
      }
    }
    // The enquiry form said it its own way before, and still does.
    expect(messages(enquirySchema(["Python"]), { ...enquiry, name: "Asha\nK" })).toEqual(["Name must be plain text."]);
  });

  it("refuse them in a learner's name at sign-up and in a profile change, before anything else about it", () => {
    const form = {
      username: "Asha",
      phone: "9876543210",
      course: "Python",
      gender: "female",
      email: "asha@example.com",
      password: "secret12",
      confirmPassword: "secret12",
    };
    expect(firstSignUpProblem(form, signUpCourses)).toBeNull();
    for (const value of breaks) {
      expect([value, firstSignUpProblem({ ...form, username: value }, signUpCourses)]).toEqual([
        value,
        singleLineMessage,
      ]);
      expect([value, firstProfileProblem({ name: value }, signUpCourses)]).toEqual([value, singleLineMessage]);
    }
    // An email or a phone has its own rule that already refuses any whitespace.
    expect(firstSignUpProblem({ ...form, email: "asha\n@example.com" }, signUpCourses)).toBe("Invalid email format.");
    expect(firstSignUpProblem({ ...form, phone: "98765\t3210" }, signUpCourses)).toBe("Invalid phone number.");
  });
});
