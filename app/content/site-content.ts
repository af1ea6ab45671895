/**
 * Everything the public site says, in one typed module, so components only lay it out.
 * Course titles, durations, prices and the sign-up options are the product specification's, exactly.
 */

/** A service or advantage card: a label, a short value line and a longer description. */
export interface Highlight {
  readonly label: string;
  readonly value: string;
  readonly description: string;
}

export interface Course {
  /** Stable key for lists and anchors. */
  readonly id: string;
  readonly title: string;
  readonly duration: string;
  /** Fee in rupees; null where no amount is shown (Linux). */
  readonly price: number | null;
  readonly details: string;
}

export const welcome = {
  eyebrow: "Software studio and training institute in Pune",
  heading: "We build software for businesses and train the developers who will build the next.",
  intro:
    "Our engineers ship web and mobile products for clients every week. Learners train beside them on the same code, the same tools and the same deadlines, and pay for pay-after-placement courses only once they are hired.",
  blurbs: [
    {
      label: "Software Development",
      value: "Web, mobile and cloud products, built to last",
      description:
        "From a first prototype to a product with thousands of daily users: we plan, design, build, test and run it, with a weekly demo so you always see where your money goes.",
    },
    {
      label: "Training Programs",
      value: "Job-ready skills taught by working engineers",
      description:
        "Classroom and live online batches in web, app, data and security tracks, with code reviews on every assignment and mock interviews before you apply anywhere.",
    },
    {
      label: "Internships",
      value: "Real client work on your résumé",
      description:
        "Interns join a project team for 3 to 6 months, pick up tickets from the same board as our staff and leave with a completion certificate and an offer letter when they earn one.",
    },
  ],
} as const satisfies {
  eyebrow: string;
  heading: string;
  intro: string;
  blurbs: readonly Highlight[];
};

/** "Our Services": the eight things clients hire us for. */
export const services = [
  {
    label: "Custom Web Applications",
    value: "Portals, dashboards and SaaS products",
    description:
      "React and Node.js applications with role-based access, reporting and integrations with the tools you already use, delivered in two-week sprints you can review.",
  },
  {
    label: "Mobile App Development",
    value: "Android and iOS from one team",
    description:
      "Native Kotlin and Swift apps, or a shared React Native or Flutter code base when speed matters more, published to the Play Store and App Store under your account.",
  },
  {
    label: "UI/UX Design",
    value: "Interfaces people understand on first use",
    description:
      "User interviews, wireframes and clickable prototypes tested with real users before a line of code is written, then a design system your developers can reuse.",
  },
  {
    label: "E-commerce Solutions",
    value: "Online stores that take payments from day one",
    description:
      "Catalogue, cart, UPI and card payments, GST invoices and shipping integrations, on a hosted platform or a custom build when your business needs one.",
  },
  {
    label: "Cloud and DevOps",
    value: "Reliable hosting at a predictable cost",
    description:
      "Migration to AWS, Azure or your own servers, automated builds and deployments, backups, monitoring and alerts, so releases are routine instead of risky.",
  },
  {
    label: "Software Testing and QA",
    value: "Fewer bugs reach your customers",
    description:
      "Manual and automated testing of web and mobile apps, with regression suites that run on every change and clear reports your team can act on.",
  },
  {
    label: "Data and AI Solutions",
    value: "Turn your records into decisions",
    description:
      "Data pipelines, dashboards and machine-learning models for forecasting, recommendations and document processing, built on data you already collect.",
  },
  {
    label: "Maintenance and Support",
    value: "A team that keeps your software running",
    description:
      "Security updates, bug fixes and small improvements under a monthly plan with agreed response times, including for systems we did not build ourselves.",
  },
] as const satisfies readonly Highlight[];

/** "Our Features": how the institute works, in a few points. */
export const ourFeatures = {
  heading: "Our Features",
  intro:
    "We are a working software company first. That shapes how we teach: every course is built around the projects our clients pay us for.",
  points: [
    {
      title: "Learn on live projects",
      text: "Assignments come from real client briefs, reviewed by the engineers who shipped them.",
    },
    {
      title: "Pay after placement",
      text: "Selected courses are paid only once you accept a job offer, so our incentive matches yours.",
    },
    {
      title: "Your own learner dashboard",
      text: "Notices, tasks, certificates and your offer letter in one place, and your résumé ready for recruiters.",
    },
    {
      title: "Small batches in Pune and online",
      text: "At most 25 learners per batch, with weekday, weekend and evening timings.",
    },
  ],
} as const satisfies {
  heading: string;
  intro: string;
  points: readonly { title: string; text: string }[];
};

/** "Your Advantage": thirteen reasons to train with us. */
export const features = [
  {
    label: "Industry Mentors",
    value: "Taught by working engineers",
    description:
      "Every trainer spends part of the week on client projects, so what you learn is what teams use today, not what was popular five years ago.",
  },
  {
    label: "Live Projects",
    value: "Build software people actually use",
    description:
      "You contribute to at least one real project during your course and can show the code and the result to any interviewer.",
  },
  {
    label: "Pay After Placement",
    value: "Start now, pay once you are hired",
    description:
      "For the pay-after-placement courses the fee is due only after you accept a job offer, paid through our secure payment link.",
  },
  {
    label: "Placement Assistance",
    value: "Introductions to hiring companies",
    description:
      "We share your profile with our network of partner companies in Pune and beyond and schedule interviews once you are ready.",
  },
  {
    label: "Mock Interviews",
    value: "Practise before it counts",
    description: "Technical and HR mock interviews with written feedback, repeated until you answer with confidence.",
  },
  {
    label: "Résumé and Portfolio",
    value: "A profile that gets shortlisted",
    description:
      "One-to-one help to write your résumé, tidy your GitHub and present your projects so recruiters see your skills at a glance.",
  },
  {
    label: "Internship Certificate",
    value: "Proof of real experience",
    description:
      "Complete your internship tasks and receive a certificate, plus an offer letter when you meet the project team's bar.",
  },
  {
    label: "Small Batches",
    value: "At most 25 learners per batch",
    description: "Trainers know every learner by name, answer every question and review every assignment themselves.",
  },
  {
    label: "Flexible Timings",
    value: "Weekday, weekend and evening batches",
    description: "Study alongside college or a job: switch batches if your schedule changes, without paying again.",
  },
  {
    label: "Hybrid Learning",
    value: "Classroom in Pune or live online",
    description:
      "Join sessions at our Baner centre or from home; every session is recorded so you can revise at your own pace.",
  },
  {
    label: "Doubt-Clearing Sessions",
    value: "Help whenever you are stuck",
    description: "Daily doubt-clearing slots and a moderated chat group where mentors answer within the working day.",
  },
  {
    label: "Task-Based Learning",
    value: "Weekly tasks with feedback",
    description:
      "Tasks arrive on your dashboard each week; submit a link to your work and get a review with concrete next steps.",
  },
  {
    label: "Soft Skills Training",
    value: "Communicate like a professional",
    description:
      "Sessions on spoken English, email writing, teamwork and presenting your work, the skills interviews test as much as code.",
  },
] as const satisfies readonly Highlight[];

/**
 * The pay-after-placement catalogue, in the specified order: what a fresh install starts with
 * (migration 0021 copies it into the `course` table, which admins then edit on /staff/courses).
 */
export const courses = [
  {
    id: "web-development",
    title: "Web Development",
    duration: "6 Months",
    price: 15500,
    details:
      "HTML, CSS and JavaScript, then React, Node.js, Express and SQL databases. You finish with a deployed full-stack application and a portfolio site.",
  },
  {
    id: "app-development",
    title: "App Development",
    duration: "6 Months",
    price: 22500,
    details:
      "Cross-platform apps with React Native and Flutter: navigation, state management, REST APIs, push notifications and publishing to the Play Store.",
  },
  {
    id: "native-development",
    title: "Native Development",
    duration: "5 Months",
    price: 24500,
    details:
      "Android with Kotlin and Jetpack Compose, plus an introduction to iOS with Swift and SwiftUI, building two complete apps with offline storage.",
  },
  {
    id: "java",
    title: "Java",
    duration: "5 Months",
    price: 15500,
    details:
      "Core Java, object-oriented design, collections and multithreading, then Spring Boot, JPA and REST services with unit tests.",
  },
  {
    id: "python",
    title: "Python",
    duration: "4 Months",
    price: 35500,
    details:
      "Python from the basics to Django and Flask web apps, data handling with pandas and automation scripts for everyday work.",
  },
  {
    id: "data-structures-and-algorithms",
    title: "Data Structures & Algorithms",
    duration: "6 Months",
    price: 115500,
    details:
      "Arrays to graphs and dynamic programming, with over 300 interview problems solved in Java or C++ and weekly timed contests.",
  },
  {
    id: "c-and-cpp",
    title: "C & C++",
    duration: "4 Months",
    price: 15500,
    details:
      "Pointers, memory management, structures and file handling in C, then classes, templates and the STL in modern C++.",
  },
  {
    id: "dotnet",
    title: ".NET",
    duration: "5 Months",
    price: 18500,
    details:
      "ASP.NET Core web APIs and MVC, Entity Framework Core and SQL Server, with authentication and deployment to Azure.",
  },
  {
    id: "csharp",
    title: "C#",
    duration: "5 Months",
    price: 12499,
    details:
      "C# language fundamentals, LINQ, async programming and desktop apps with WPF, leading into the .NET ecosystem.",
  },
  {
    id: "linux",
    title: "Linux",
    duration: "3 Months",
    price: null,
    details:
      "The command line, shell scripting, users and permissions, networking, services and server administration on Ubuntu and Red Hat.",
  },
  {
    id: "ethical-hacking",
    title: "Ethical Hacking",
    duration: "6 Months",
    price: 65000,
    details:
      "Networking, Kali Linux, reconnaissance, web application testing and the OWASP Top 10, practised in legal lab environments.",
  },
  {
    id: "game-development",
    title: "Game Development",
    duration: "6 Months",
    price: 45500,
    details:
      "Unity and C#: game physics, animation, level design and UI, shipping a complete 2D and a 3D game by the end of the course.",
  },
] as const satisfies readonly Course[];

/**
 * The course options of the sign-up form, exactly as specified, in order: what a fresh install
 * starts with (migration 0021 copies them into `signup_course_option`; admins edit them there).
 */
export const signUpCourses = [
  "Web Development",
  "App Development",
  "UI/UX Design",
  "C Programming",
  "C++ Programming",
  "Python",
  "Java",
  "Machine Learning",
  "Data Science",
  "Artificial Intelligence",
  "Data Structures and Algorithms (DSA)",
  "3D Animation",
  "VFX",
  "Game Development",
  "Interior Design",
  "AutoCAD",
  "Ethical Hacking",
  "Cyber-Security",
  "Digital Marketing",
  "Digital Photography",
  "Video Editing",
  "3D Modeling",
  "Web Design",
  "Graphic Design",
  "Motion Graphics",
  "Animation",
  "Video Production",
  "Social Media Marketing",
  "Content Writing",
  "Copywriting",
  "SEO",
  "Digital Marketing Strategy",
  "Social Media Management",
  "Content Marketing",
  "Email Marketing",
  "Lead Generation",
] as const;

export type SignUpCourse = (typeof signUpCourses)[number];

export const aboutUs = {
  heading: "About Us",
  paragraphs: [
    "We are a software development company and training institute based in Baner, Pune. Since our first client project we have built web portals, mobile apps and internal tools for startups, schools, clinics and manufacturers across Maharashtra.",
    "The same engineers who build that software teach our courses. Learners practise on real project work, interns join client teams, and our pay-after-placement courses mean you pay the fee only once you have a job offer.",
  ],
} as const;

export const contactUs = {
  heading: "Contact Us",
  intro: "Questions about a course, an internship or a project? Write or call us; we reply within one working day.",
  hours: "Monday to Saturday, 10:00 to 19:00 IST",
} as const;

export const coursesSection = {
  heading: "Pay After Placement Courses",
  intro:
    "Join now and pay the course fee after you are placed. Register through our payment link to reserve your seat in the next batch.",
} as const;

export const servicesSection = {
  heading: "Our Services",
  intro: "What businesses hire us to build and run.",
} as const;

export const advantageSection = {
  heading: "Your Advantage",
  intro: "Why learners in Pune choose to train with us.",
} as const;
